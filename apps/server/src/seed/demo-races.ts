import { and, asc, eq, inArray } from 'drizzle-orm';
import { cars, skins, tracks } from '../db/schema/laps';
import {
  eventEntries,
  eventSessions,
  parties,
  partyMembers,
  raceEvents,
  racePresets,
} from '../db/schema/races';
import { calendars } from '../db/schema/venue';
import type { Queryable } from '../plugins/payments/charge-card';

const SKINS = [
  { key: 'red_01', name: 'Rosso Corsa' },
  { key: 'blue_02', name: 'Gulf Blue' },
  { key: 'white_03', name: 'Silver Arrow' },
];
const GT3 = ['ks_audi_r8_lms', 'ks_porsche_911_gt3_r_2016', 'ks_ferrari_488_gt3'];

/**
 * Race control for the demo: skins for every car, a GT3 sprint preset, and one party at the
 * Downtown location (its first three cockpits) on Monza, so the party page and the launcher
 * have something to show. Every seat already has its own event (the calendars trigger).
 */
export async function seedDemoRaces(tx: Queryable, opts: { locationId: number }) {
  const carRows = await tx.select({ id: cars.id, key: cars.key }).from(cars);
  const skinRows = await tx
    .insert(skins)
    .values(carRows.flatMap((c) => SKINS.map((s) => ({ carId: c.id, ...s }))))
    .returning({ id: skins.id, carId: skins.carId });
  const [monza] = await tx.select({ id: tracks.id }).from(tracks).where(eq(tracks.key, 'monza'));
  const gt3 = carRows.filter((c) => GT3.includes(c.key)).map((c) => c.id);
  const sessions = [
    { name: 'Practice', type: 'PRACTICE', spawn: 'PIT', duration: 10, duration_is_laps: false },
    { name: 'Qualifying', type: 'QUALIFYING', spawn: 'PIT', duration: 10, duration_is_laps: false },
    { name: 'Race', type: 'RACE', spawn: 'START', duration: 5, duration_is_laps: true },
  ] as const;
  const [preset] = await tx
    .insert(racePresets)
    .values({
      name: 'GT3 Sprint at Monza',
      trackId: monza?.id ?? null,
      carIds: gt3,
      sessions: sessions.map((s) => ({ ...s })),
      assists: ['abs', 'traction_control'],
    })
    .returning({ id: racePresets.id });

  const seats = await tx
    .select({ id: calendars.id, name: calendars.name })
    .from(calendars)
    .where(eq(calendars.locationId, opts.locationId))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id))
    .limit(3);
  if (seats.length < 3 || gt3.length === 0) return;
  const [host, ...guests] = seats;
  const [event] = await tx
    .update(raceEvents)
    .set({
      trackId: monza?.id ?? null,
      carIds: gt3,
      presetId: preset.id,
      assists: ['abs', 'traction_control'],
    })
    .where(eq(raceEvents.calendarId, host.id))
    .returning({ id: raceEvents.id });
  await tx.delete(eventSessions).where(eq(eventSessions.eventId, event.id));
  await tx.insert(eventSessions).values(
    sessions.map((s, i) => ({
      eventId: event.id,
      name: s.name,
      type: s.type,
      spawn: s.spawn,
      ordering: i,
      duration: s.duration,
      durationIsLaps: s.duration_is_laps,
    })),
  );
  const [party] = await tx
    .insert(parties)
    .values({
      locationId: opts.locationId,
      name: `${host.name}'s Party`,
      hostCalendarId: host.id,
      hostEventId: event.id,
    })
    .returning({ id: parties.id });
  await tx
    .insert(partyMembers)
    .values([
      { partyId: party.id, calendarId: host.id, isHost: true },
      ...guests.map((g) => ({ partyId: party.id, calendarId: g.id })),
    ]);
  await tx
    .insert(eventEntries)
    .values(guests.map((g) => ({ eventId: event.id, calendarId: g.id })));
  for (const [i, seat] of seats.entries()) {
    const carId = gt3[i % gt3.length];
    const skin = skinRows.find((s) => s.carId === carId);
    await tx
      .update(eventEntries)
      .set({ carId, skinId: skin?.id ?? null })
      .where(and(eq(eventEntries.eventId, event.id), inArray(eventEntries.calendarId, [seat.id])));
  }
}
