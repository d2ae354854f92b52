// Changing an event's settings and entries (PATCH/PUT /races/events/{id}) and what changed.
import { and, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import { type RaceEvent, type RaceEventUpdate } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { cars, skins, tracks } from '../../db/schema/laps';
import { eventEntries, parties, racePresets, raceEvents } from '../../db/schema/races';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import { getEvent } from './load-events';
import { replaceSessions, checkSessions } from './event-sessions';

async function eventSeats(tx: Queryable, eventId: number) {
  return tx
    .select({ calendarId: eventEntries.calendarId, carId: eventEntries.carId })
    .from(eventEntries)
    .where(eq(eventEntries.eventId, eventId));
}

/** PATCH/PUT /races/events/{id}. */
export async function updateEvent(
  db: Db,
  actor: AuthUser,
  id: number,
  body: RaceEventUpdate,
): Promise<RaceEvent> {
  await db.transaction(async (tx) => {
    const [event] = await tx.select().from(raceEvents).where(eq(raceEvents.id, id)).for('update');
    if (!event) throw new NotFound();
    const before = await getEvent(tx, id);
    const [party] = await tx
      .select({ id: parties.id })
      .from(parties)
      .where(eq(parties.hostEventId, id));

    // A preset first: the request's own fields then apply on top of it.
    let fields: RaceEventUpdate = body;
    if (body.preset !== undefined && body.preset !== null) {
      const [preset] = await tx.select().from(racePresets).where(eq(racePresets.id, body.preset));
      if (!preset)
        throw ValidationError.field(
          'preset',
          `Invalid pk "${body.preset}" - object does not exist.`,
        );
      fields = {
        track: preset.trackId,
        cars: preset.carIds,
        sessions: preset.sessions,
        assists: preset.assists,
        penalties: preset.penalties,
        fixed_setup: preset.fixedSetup,
        drift_mode: preset.driftMode,
        ...body,
      };
    }

    if (fields.track !== undefined && fields.track !== null) {
      const [track] = await tx
        .select({ id: tracks.id })
        .from(tracks)
        .where(eq(tracks.id, fields.track));
      if (!track)
        throw ValidationError.field(
          'track',
          `Invalid pk "${fields.track}" - object does not exist.`,
        );
    }
    const carIds = fields.cars === undefined ? event.carIds : [...new Set(fields.cars)];
    if (fields.cars !== undefined && carIds.length) {
      const found = await tx.select({ id: cars.id }).from(cars).where(inArray(cars.id, carIds));
      const missing = carIds.filter((c) => !found.some((f) => f.id === c));
      if (missing.length)
        throw ValidationError.field('cars', `Invalid pk "${missing[0]}" - object does not exist.`);
    }
    if (fields.sessions !== undefined) checkSessions(fields.sessions, Boolean(party));

    const set = {
      ...(fields.track !== undefined ? { trackId: fields.track } : {}),
      ...(fields.cars !== undefined ? { carIds } : {}),
      ...(fields.preset !== undefined ? { presetId: fields.preset } : {}),
      ...(fields.assists !== undefined ? { assists: [...new Set(fields.assists)] } : {}),
      ...(fields.penalties !== undefined ? { penalties: fields.penalties } : {}),
      ...(fields.fixed_setup !== undefined ? { fixedSetup: fields.fixed_setup } : {}),
      ...(fields.drift_mode !== undefined ? { driftMode: fields.drift_mode } : {}),
    };
    if (Object.keys(set).length)
      await tx
        .update(raceEvents)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(raceEvents.id, id));
    if (fields.sessions !== undefined) await replaceSessions(tx, id, fields.sessions);

    // The allowed cars changed: a seat whose car left the set has none (and no skin) now.
    if (fields.cars !== undefined)
      await tx
        .update(eventEntries)
        .set({ carId: null, skinId: null })
        .where(
          and(
            eq(eventEntries.eventId, id),
            isNotNull(eventEntries.carId),
            carIds.length ? notInArray(eventEntries.carId, carIds) : undefined,
          ),
        );
    if (fields.entries !== undefined) await updateEntries(tx, id, carIds, fields.entries);

    const after = await getEvent(tx, id);
    // Nothing changed (an empty PATCH): no trail, no announcement.
    if (Object.keys(changedFields(before, after, 'after')).length === 0) return;
    await recordAudit(tx, actor, {
      action: 'races.change_event',
      targetType: 'race_event',
      targetId: id,
      before: changedFields(before, after, 'before'),
      after: changedFields(before, after, 'after'),
    });
    await publishChange(tx, 'events', id);
  });
  return getEvent(db, id);
}

async function updateEntries(
  tx: Queryable,
  eventId: number,
  carIds: number[],
  list: NonNullable<RaceEventUpdate['entries']>,
) {
  const seats = await eventSeats(tx, eventId);
  const errors: string[] = [];
  const seen = new Set<number>();
  for (const [i, entry] of list.entries()) {
    const where = `Entry ${i + 1}`;
    const seat = seats.find((s) => s.calendarId === entry.calendar);
    if (!seat) {
      errors.push(`${where}: seat ${entry.calendar} is not in this event.`);
      continue;
    }
    if (seen.has(entry.calendar)) errors.push(`${where}: seat ${entry.calendar} is named twice.`);
    seen.add(entry.calendar);
    const car = entry.car === undefined ? seat.carId : entry.car;
    if (car !== null && !carIds.includes(car))
      errors.push(`${where}: car ${car} is not one of the event's cars.`);
    if (entry.skin !== undefined && entry.skin !== null) {
      const [skin] = await tx
        .select({ carId: skins.carId })
        .from(skins)
        .where(eq(skins.id, entry.skin));
      if (!skin || skin.carId !== car)
        errors.push(`${where}: skin ${entry.skin} is not a skin of that car.`);
    }
    if (entry.user !== undefined && entry.user !== null) {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, entry.user));
      if (!user) errors.push(`${where}: user ${entry.user} does not exist.`);
    }
  }
  if (errors.length) throw new ValidationError({ entries: errors });
  for (const entry of list) {
    const seat = seats.find((s) => s.calendarId === entry.calendar)!;
    const carChanged = entry.car !== undefined && entry.car !== seat.carId;
    await tx
      .update(eventEntries)
      .set({
        ...(entry.car !== undefined ? { carId: entry.car } : {}),
        // A new car without a skin named drops the old car's skin.
        ...(entry.skin !== undefined ? { skinId: entry.skin } : carChanged ? { skinId: null } : {}),
        ...(entry.user !== undefined ? { userId: entry.user } : {}),
      })
      .where(and(eq(eventEntries.eventId, eventId), eq(eventEntries.calendarId, entry.calendar)));
  }
}

/** The top-level fields whose value differs between two versions of an event. */
export function changedFields(
  before: RaceEvent,
  after: RaceEvent,
  side: 'before' | 'after',
): Partial<RaceEvent> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof RaceEvent)[])
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      out[key] = side === 'before' ? before[key] : after[key];
  return out as Partial<RaceEvent>;
}
