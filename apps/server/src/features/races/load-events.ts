// Reading race events (sessions, entries, party guests) and which event a seat runs now.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { loadStateOf, type Entry, type RaceEvent } from '@paddock/contract/races';
import type { Db } from '../../db/client';
import { eventEntries, eventSessions, parties, raceEvents } from '../../db/schema/races';
import { calendars } from '../../db/schema/venue';
import { currentEventSql } from '../../lib/current-event-sql';
import { NotFound } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { connectedSeats, seatKey } from './rig-presence';

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
    .select({ id: parties.id, eventId: parties.hostEventId, calendarId: parties.hostCalendarId })
    .from(parties)
    .where(inArray(parties.hostEventId, ids));
  // The event each owning seat runs now: another one when it is in a started party elsewhere.
  const seatIds = rows.flatMap((r) => (r.calendarId === null ? [] : [r.calendarId]));
  const moves = seatIds.length
    ? await db
        .select({ calendarId: calendars.id, to: currentEventSql(sql`${calendars.id}`) })
        .from(calendars)
        .where(inArray(calendars.id, seatIds))
    : [];
  const rigs = await connectedSeats(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const e = byId.get(id);
    if (!e) return [];
    const party = partyRows.find((p) => p.eventId === id);
    const to = moves.find((m) => m.calendarId === e.calendarId)?.to ?? null;
    return [
      {
        id: e.id,
        // A party's own event (one set up for later) belongs to no seat: its host seat's.
        calendar: e.calendarId ?? party?.calendarId ?? 0,
        party: party?.id ?? null,
        moved_to: to !== null && Number(to) !== e.id ? Number(to) : null,
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
        entries: entryRows
          .filter((r) => r.entry.eventId === id)
          .map((r) => toEntry(r, rigs.has(seatKey(id, r.entry.calendarId)))),
        preset: e.presetId,
        assists: e.assists,
        penalties: e.penalties,
        fixed_setup: e.fixedSetup,
        drift_mode: e.driftMode,
      },
    ];
  });
}

function toEntry(
  r: { entry: typeof eventEntries.$inferSelect; calendarName: string },
  rigConnected: boolean,
): Entry {
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
    rig_connected: rigConnected,
  };
}

export async function getEvent(db: Queryable, id: number): Promise<RaceEvent> {
  const [event] = await loadEvents(db, [id]);
  if (!event) throw new NotFound();
  return event;
}

/**
 * The event a seat runs now: its started party's event while it is in one, else its own
 * (spec §3 Calendar.event; a party set up for later waits for its `starts_at`).
 */
export async function currentEventOf(db: Queryable, calendarId: number): Promise<number | null> {
  const result = await db.execute<{ id: number | null }>(
    sql`select ${currentEventSql(calendarId)} as id`,
  );
  const id = result.rows[0]?.id;
  return id === null || id === undefined ? null : Number(id);
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
    select ${currentEventSql(sql`c.id`)} as id, min(c.sort_order) as first, min(c.id) as seat
    from calendars c
    where c.active ${location === undefined ? sql`` : sql`and c.location_id = ${location}`}
      and exists (select 1 from race_events e where e.calendar_id = c.id)
    group by 1
    order by first, seat`);
  return loadEvents(
    db,
    result.rows.map((r) => Number(r.id)),
  );
}
