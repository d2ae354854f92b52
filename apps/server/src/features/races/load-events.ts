// Reading race events (sessions, entries, party guests) and which event a seat runs now.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { loadStateOf, type Entry, type RaceEvent } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import {
  eventEntries,
  eventSessions,
  parties,
  partyMembers,
  raceEvents,
} from '../../db/schema/races';
import { calendars } from '../../db/schema/venue';
import { NotFound } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';

/** Events with their sessions and entries, in the order of `ids`. */
export async function loadEvents(db: Queryable, ids: number[]): Promise<RaceEvent[]> {
  if (ids.length === 0) return [];
  // One after another: inside a transaction these share one connection.
  const rows = await db.select().from(raceEvents).where(inArray(raceEvents.id, ids));
  const sessionRows = await db
    .select()
    .from(eventSessions)
    .where(inArray(eventSessions.eventId, ids))
    .orderBy(asc(eventSessions.ordering), asc(eventSessions.id));
  const entryRows = await db
    .select({ entry: eventEntries, calendarName: calendars.name })
    .from(eventEntries)
    .innerJoin(calendars, eq(calendars.id, eventEntries.calendarId))
    .where(inArray(eventEntries.eventId, ids))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id));
  const partyRows = await db
    .select({ id: parties.id, eventId: parties.hostEventId })
    .from(parties)
    .where(inArray(parties.hostEventId, ids));
  // Seats of these events that are guests in a party elsewhere.
  const moves = await db
    .select({ calendarId: partyMembers.calendarId, to: parties.hostEventId })
    .from(partyMembers)
    .innerJoin(parties, eq(parties.id, partyMembers.partyId))
    .where(
      and(
        eq(partyMembers.isHost, false),
        inArray(
          partyMembers.calendarId,
          rows.map((r) => r.calendarId),
        ),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const e = byId.get(id);
    if (!e) return [];
    return [
      {
        id: e.id,
        calendar: e.calendarId,
        party: partyRows.find((p) => p.eventId === id)?.id ?? null,
        moved_to: moves.find((m) => m.calendarId === e.calendarId)?.to ?? null,
        track: e.trackId,
        cars: e.carIds,
        sessions: sessionRows
          .filter((s) => s.eventId === id)
          .map((s) => ({
            id: s.id,
            event: s.eventId,
            name: s.name,
            type: s.type,
            spawn: s.spawn,
            ordering: s.ordering,
            duration: s.duration,
            duration_is_laps: s.durationIsLaps,
          })),
        entries: entryRows.filter((r) => r.entry.eventId === id).map(toEntry),
        preset: e.presetId,
        assists: e.assists,
        penalties: e.penalties,
        fixed_setup: e.fixedSetup,
        drift_mode: e.driftMode,
      },
    ];
  });
}

function toEntry(r: { entry: typeof eventEntries.$inferSelect; calendarName: string }): Entry {
  const e = r.entry;
  const flags = { exited: e.exited, initialized: e.initialized, launched: e.launched };
  return {
    id: e.id,
    event: e.eventId,
    calendar: e.calendarId,
    calendar_name: r.calendarName,
    user: e.userId,
    car: e.carId,
    skin: e.skinId,
    ...flags,
    state: loadStateOf(flags),
  };
}

export async function getEvent(db: Queryable, id: number): Promise<RaceEvent> {
  const [event] = await loadEvents(db, [id]);
  if (!event) throw new NotFound();
  return event;
}

/**
 * The event a seat runs now: its party's host event while it is in a party, else its own
 * (spec §3 Calendar.event).
 */
export async function currentEventOf(db: Queryable, calendarId: number): Promise<number | null> {
  const result = await db.execute<{ id: number | null }>(sql`
    select coalesce(
      (select p.host_event_id from party_members m join parties p on p.id = m.party_id
        where m.calendar_id = ${calendarId}),
      (select id from race_events where calendar_id = ${calendarId})) as id`);
  return result.rows[0]?.id ?? null;
}

/** A rig may read (and listen to) the event its seat runs now, and its own seat's event. */
export async function rigMayUse(db: Queryable, calendarId: number, eventId: number) {
  const [own] = await db
    .select({ id: raceEvents.id })
    .from(raceEvents)
    .where(eq(raceEvents.calendarId, calendarId));
  if (own?.id === eventId) return true;
  return (await currentEventOf(db, calendarId)) === eventId;
}

/** The events the seats of a location (or of every location) run now, in seat order, once each. */
export async function listCurrentEvents(
  db: Db,
  location: number | undefined,
): Promise<RaceEvent[]> {
  const result = await db.execute<{ id: number }>(sql`
    select coalesce(p.host_event_id, e.id) as id, min(c.sort_order) as first, min(c.id) as seat
    from calendars c
    join race_events e on e.calendar_id = c.id
    left join party_members m on m.calendar_id = c.id
    left join parties p on p.id = m.party_id
    where c.active ${location === undefined ? sql`` : sql`and c.location_id = ${location}`}
    group by 1
    order by first, seat`);
  return loadEvents(
    db,
    result.rows.map((r) => Number(r.id)),
  );
}
