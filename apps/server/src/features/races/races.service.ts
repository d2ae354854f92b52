import crypto from 'node:crypto';
import { and, asc, eq, gt, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import {
  ASSIST_NAMES,
  ASSISTS,
  DRIVERS_MAX,
  SESSION_DEFAULTS,
  SESSION_LAPS_MAX,
  SESSION_NAMES,
  TICKET_SECONDS,
  defaultPartyName,
  loadStateOf,
  type Assist,
  type Driver,
  type Entry,
  type Party,
  PARTY_STARTED,
  type PartyHost,
  type PartyUpdate,
  type PartyMember,
  type PartyMemberAdd,
  type Preset,
  type PresetCreate,
  type RaceEvent,
  type RaceEventUpdate,
  type RigReport,
  type SessionWrite,
  type SignalWrite,
  type Skin,
} from '@paddock/contract/races';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { cars, skins, tracks } from '../../db/schema/laps';
import {
  eventEntries,
  eventSessions,
  parties,
  partyMembers,
  racePresets,
  raceEvents,
  socketTickets,
  type PresetSession,
} from '../../db/schema/races';
import { calendars } from '../../db/schema/venue';
import { sha256Hex } from '../../lib/hash';
import { displayNameSql } from '../../lib/display-name-sql';
import { containsPattern } from '../../lib/sql-text';
import { currentEventSql } from '../../lib/current-event-sql';
import { checkSeatFree, partyStart } from './party-start';
import type { AuthUser } from '../../plugins/auth';
import { publishChange, publishRelay } from '../../plugins/changes';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { paginate } from '../../plugins/pagination';
import { recordAudit } from '../audit/audit.service';

const SEAT_IN_PARTY = 'This seat is already in a party.';
const OTHER_LOCATION = "This seat is not at the party's location.";

// ---------------------------------------------------------------- reading

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

async function loadParties(db: Queryable, partyIds: number[]): Promise<Party[]> {
  if (partyIds.length === 0) return [];
  const rows = await db
    .select()
    .from(parties)
    .where(inArray(parties.id, partyIds))
    .orderBy(asc(parties.createdAt), asc(parties.id));
  const memberRows = await db
    .select({ member: partyMembers, calendarName: calendars.name })
    .from(partyMembers)
    .innerJoin(calendars, eq(calendars.id, partyMembers.calendarId))
    .where(inArray(partyMembers.partyId, partyIds))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id));
  const events = await loadEvents(
    db,
    rows.map((r) => r.hostEventId),
  );
  return rows.map((p) => {
    const event = events.find((e) => e.id === p.hostEventId)!;
    return {
      id: p.id,
      location: p.locationId,
      name: p.name,
      host_event: p.hostEventId,
      host_calendar: p.hostCalendarId,
      members: memberRows
        .filter((m) => m.member.partyId === p.id)
        .map((m) => toMember(m.member, m.calendarName, event)),
      member_requests: [],
      starts_at: p.startsAt?.toISOString() ?? null,
      started: p.startsAt === null || p.startsAt.getTime() <= Date.now(),
      event,
    };
  });
}

function toMember(
  m: typeof partyMembers.$inferSelect,
  calendarName: string,
  event: RaceEvent,
): PartyMember {
  return {
    id: m.id,
    party: m.partyId,
    calendar: m.calendarId,
    calendar_name: calendarName,
    user: event.entries.find((e) => e.calendar === m.calendarId)?.user ?? null,
    is_host: m.isHost,
  };
}

/** Parties of a location (all locations when none is named), oldest first, with related. */
export async function listParties(db: Db, location: number | undefined): Promise<Party[]> {
  const rows = await db
    .select({ id: parties.id })
    .from(parties)
    .where(location === undefined ? undefined : eq(parties.locationId, location))
    .orderBy(asc(parties.createdAt), asc(parties.id));
  return loadParties(
    db,
    rows.map((r) => r.id),
  );
}

export async function getParty(db: Queryable, id: number): Promise<Party> {
  const [party] = await loadParties(db, [id]);
  if (!party) throw new NotFound();
  return party;
}

// ---------------------------------------------------------------- parties

async function seatOf(tx: Queryable, field: string, calendarId: number) {
  const [seat] = await tx
    .select({ id: calendars.id, name: calendars.name, locationId: calendars.locationId })
    .from(calendars)
    .where(eq(calendars.id, calendarId));
  if (!seat)
    throw ValidationError.field(field, `Invalid pk "${calendarId}" - object does not exist.`);
  return seat;
}

async function ownEventId(tx: Queryable, calendarId: number): Promise<number> {
  const [row] = await tx
    .select({ id: raceEvents.id })
    .from(raceEvents)
    .where(eq(raceEvents.calendarId, calendarId));
  if (row) return row.id;
  // A seat made before the trigger existed cannot be, but be safe: give it its event now.
  const [made] = await tx
    .insert(raceEvents)
    .values({ calendarId })
    .returning({ id: raceEvents.id });
  await tx.insert(eventEntries).values({ eventId: made.id, calendarId });
  return made.id;
}

/** Locks the seat rows in id order, so two parties built at once wait for each other. */
export async function lockSeats(tx: Queryable, ids: number[]) {
  await tx.execute(
    sql`select id from calendars where id in (${sql.join(
      [...ids].sort((a, b) => a - b).map((id) => sql`${id}`),
      sql`, `,
    )}) order by id for update`,
  );
}

async function announceParty(tx: Queryable, locationId: number, eventIds: number[]) {
  await publishChange(tx, 'parties', locationId);
  for (const id of eventIds) await publishChange(tx, 'events', id);
}

/** A later party's event of its own (no seat owns it), with the host seat's entry. */
async function newPartyEvent(tx: Queryable, hostCalendarId: number): Promise<number> {
  const [made] = await tx.insert(raceEvents).values({}).returning({ id: raceEvents.id });
  await replaceSessions(tx, made.id, defaultSessions());
  await tx.insert(eventEntries).values({ eventId: made.id, calendarId: hostCalendarId });
  return made.id;
}

/**
 * POST /races/parties/host: the seat hosts a new party. Now: its own event becomes the party's.
 * Later (`starts_at`): the party gets an event of its own, which the seats run from that time.
 */
export async function hostParty(
  db: Db,
  actor: AuthUser,
  body: PartyHost,
  onWaiting: () => void = () => {},
): Promise<Party> {
  const start = partyStart(body.starts_at);
  const partyId = await db.transaction(async (tx) => {
    await lockSeats(tx, [body.calendar]);
    const seat = await seatOf(tx, 'calendar', body.calendar);
    await checkSeatFree(tx, start ? 'starts_at' : 'calendar', seat.id, start);
    const eventId = start ? await newPartyEvent(tx, seat.id) : await ownEventId(tx, seat.id);
    const name = body.name?.trim() || defaultPartyName(seat.name);
    const [made] = await tx
      .insert(parties)
      .values({
        locationId: seat.locationId,
        name,
        hostCalendarId: seat.id,
        hostEventId: eventId,
        startsAt: start,
      })
      .returning({ id: parties.id });
    await tx.insert(partyMembers).values({ partyId: made.id, calendarId: seat.id, isHost: true });
    // A party is multiplayer: single-player sessions (HOTLAP) give way to the defaults.
    const hotlap = await tx
      .select({ id: eventSessions.id })
      .from(eventSessions)
      .where(
        and(
          eq(eventSessions.eventId, eventId),
          sql`(${eventSessions.type} = 'HOTLAP' or ${eventSessions.spawn} = 'HOTLAP_START')`,
        ),
      );
    if (hotlap.length) await replaceSessions(tx, eventId, defaultSessions());
    await recordAudit(tx, actor, {
      action: 'races.host_party',
      targetType: 'party',
      targetId: made.id,
      after: { name, calendar: seat.id, event: eventId, starts_at: start?.toISOString() ?? null },
    });
    await announceParty(tx, seat.locationId, [eventId]);
    return made.id;
  });
  if (start) onWaiting();
  return getParty(db, partyId);
}

/**
 * PATCH /races/parties/{id}: a new name, and a waiting party's new start (null: now); an empty
 * body changes nothing. A started party's start cannot move (its seats have switched).
 */
export async function updateParty(
  db: Db,
  actor: AuthUser,
  id: number,
  body: PartyUpdate,
  onWaiting: () => void = () => {},
): Promise<Party> {
  const start = body.starts_at === undefined ? undefined : partyStart(body.starts_at);
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(parties).where(eq(parties.id, id)).for('update');
    if (!current) throw new NotFound();
    const rename = body.name !== undefined && body.name !== current.name;
    const started = current.startsAt === null || current.startsAt.getTime() <= Date.now();
    const move = start !== undefined && (started ? start !== null : true);
    if (move && started) throw ValidationError.field('starts_at', PARTY_STARTED);
    if (!rename && !move) return;
    if (move) {
      const seats = await tx
        .select({ calendarId: partyMembers.calendarId })
        .from(partyMembers)
        .where(eq(partyMembers.partyId, id));
      await lockSeats(
        tx,
        seats.map((m) => m.calendarId),
      );
      for (const m of seats) await checkSeatFree(tx, 'starts_at', m.calendarId, start, id);
    }
    // "Now" for a waiting party: it starts at this instant (its event stays its own).
    const startsAt = start ?? new Date();
    await tx
      .update(parties)
      .set({ ...(rename ? { name: body.name } : {}), ...(move ? { startsAt } : {}) })
      .where(eq(parties.id, id));
    await recordAudit(tx, actor, {
      action: move ? 'races.change_party' : 'races.rename_party',
      targetType: 'party',
      targetId: id,
      before: {
        ...(rename ? { name: current.name } : {}),
        ...(move ? { starts_at: current.startsAt?.toISOString() ?? null } : {}),
      },
      after: {
        ...(rename ? { name: body.name } : {}),
        ...(move ? { starts_at: startsAt.toISOString() } : {}),
      },
    });
    await publishChange(tx, 'parties', current.locationId);
  });
  if (start !== undefined) onWaiting();
  return getParty(db, id);
}

/** DELETE /races/parties/{id}: every member gets its own event back. */
export async function deleteParty(db: Db, actor: AuthUser, id: number) {
  await db.transaction((tx) => endParty(tx, actor, id));
}

/** Ends a party in the caller's transaction (staff, or a later party taking its seats). */
export async function endParty(tx: Queryable, actor: AuthUser | null, id: number) {
  {
    const [party] = await tx.select().from(parties).where(eq(parties.id, id)).for('update');
    if (!party) throw new NotFound();
    const members = await tx
      .select({ calendarId: partyMembers.calendarId })
      .from(partyMembers)
      .where(eq(partyMembers.partyId, id));
    // The guests' entries leave the host's event; the host keeps its own.
    await tx
      .delete(eventEntries)
      .where(
        and(
          eq(eventEntries.eventId, party.hostEventId),
          sql`${eventEntries.calendarId} <> ${party.hostCalendarId}`,
        ),
      );
    await tx.delete(parties).where(eq(parties.id, id));
    // A later party's event is its own: it goes with the party.
    await tx
      .delete(raceEvents)
      .where(and(eq(raceEvents.id, party.hostEventId), isNull(raceEvents.calendarId)));
    await recordAudit(tx, actor, {
      action: 'races.delete_party',
      targetType: 'party',
      targetId: id,
      before: { name: party.name, members: members.map((m) => m.calendarId) },
    });
    const ownEvents: number[] = [];
    for (const m of members) ownEvents.push(await ownEventId(tx, m.calendarId));
    await announceParty(tx, party.locationId, [...new Set([party.hostEventId, ...ownEvents])]);
  }
}

/** POST /races/parties/members: a seat of the party's location joins; it gets an entry. */
export async function addMember(
  db: Db,
  actor: AuthUser,
  body: PartyMemberAdd,
): Promise<PartyMember> {
  const memberId = await db.transaction(async (tx) => {
    const [party] = await tx.select().from(parties).where(eq(parties.id, body.party)).for('update');
    if (!party)
      throw ValidationError.field('party', `Invalid pk "${body.party}" - object does not exist.`);
    await lockSeats(tx, [body.calendar]);
    const seat = await seatOf(tx, 'calendar', body.calendar);
    if (seat.locationId !== party.locationId)
      throw ValidationError.field('calendar', OTHER_LOCATION);
    const [already] = await tx
      .select({ id: partyMembers.id })
      .from(partyMembers)
      .where(and(eq(partyMembers.partyId, party.id), eq(partyMembers.calendarId, seat.id)));
    if (already) throw ValidationError.field('calendar', SEAT_IN_PARTY);
    const waiting = party.startsAt !== null && party.startsAt.getTime() > Date.now();
    await checkSeatFree(tx, 'calendar', seat.id, waiting ? party.startsAt : null, party.id);
    const [made] = await tx
      .insert(partyMembers)
      .values({ partyId: party.id, calendarId: seat.id })
      .returning({ id: partyMembers.id });
    // The guest keeps the driver of its own entry (not for later: that is today's walk-in); car
    // and skin are the party event's choice.
    const [own] = await tx
      .select({ userId: eventEntries.userId })
      .from(eventEntries)
      .innerJoin(raceEvents, eq(raceEvents.id, eventEntries.eventId))
      .where(and(eq(raceEvents.calendarId, seat.id), eq(eventEntries.calendarId, seat.id)));
    await tx
      .insert(eventEntries)
      .values({
        eventId: party.hostEventId,
        calendarId: seat.id,
        userId: waiting ? null : (own?.userId ?? null),
      })
      .onConflictDoNothing();
    await recordAudit(tx, actor, {
      action: 'races.add_member',
      targetType: 'party',
      targetId: party.id,
      after: { calendar: seat.id },
    });
    await announceParty(tx, party.locationId, [party.hostEventId, await ownEventId(tx, seat.id)]);
    return made.id;
  });
  const [row] = await db
    .select({ member: partyMembers, calendarName: calendars.name })
    .from(partyMembers)
    .innerJoin(calendars, eq(calendars.id, partyMembers.calendarId))
    .where(eq(partyMembers.id, memberId));
  const [party] = await db.select().from(parties).where(eq(parties.id, row.member.partyId));
  return toMember(row.member, row.calendarName, await getEvent(db, party.hostEventId));
}

/**
 * DELETE /races/parties/members/{id}: the seat leaves and gets its own event back. The host
 * leaving ends the party (its event is the party's).
 */
export async function removeMember(db: Db, actor: AuthUser, id: number) {
  const [member] = await db.select().from(partyMembers).where(eq(partyMembers.id, id));
  if (!member) throw new NotFound();
  await db.transaction((tx) => leaveParty(tx, actor, member));
}

/** A seat leaves its party in the caller's transaction; the host leaving ends the party. */
export async function leaveParty(
  tx: Queryable,
  actor: AuthUser | null,
  member: typeof partyMembers.$inferSelect,
) {
  if (member.isHost) return endParty(tx, actor, member.partyId);
  {
    const [party] = await tx
      .select()
      .from(parties)
      .where(eq(parties.id, member.partyId))
      .for('update');
    const deleted = await tx
      .delete(partyMembers)
      .where(eq(partyMembers.id, member.id))
      .returning({ id: partyMembers.id });
    if (!party || deleted.length === 0) throw new NotFound();
    await tx
      .delete(eventEntries)
      .where(
        and(
          eq(eventEntries.eventId, party.hostEventId),
          eq(eventEntries.calendarId, member.calendarId),
        ),
      );
    await recordAudit(tx, actor, {
      action: 'races.remove_member',
      targetType: 'party',
      targetId: party.id,
      before: { calendar: member.calendarId },
    });
    await announceParty(tx, party.locationId, [
      party.hostEventId,
      await ownEventId(tx, member.calendarId),
    ]);
  }
}

// ---------------------------------------------------------------- events

function defaultSessions(): Required<SessionWrite>[] {
  return (['PRACTICE', 'QUALIFYING', 'RACE'] as const).map((type) => ({
    name: SESSION_NAMES[type],
    type,
    spawn: SESSION_DEFAULTS[type].spawn,
    duration: SESSION_DEFAULTS[type].duration,
    duration_is_laps: false,
  }));
}

async function replaceSessions(tx: Queryable, eventId: number, list: SessionWrite[]) {
  await tx.delete(eventSessions).where(eq(eventSessions.eventId, eventId));
  await tx.insert(eventSessions).values(
    list.map((s, i) => ({
      eventId,
      name: s.name || SESSION_NAMES[s.type],
      type: s.type,
      spawn: s.spawn ?? SESSION_DEFAULTS[s.type].spawn,
      ordering: i,
      duration: s.duration,
      durationIsLaps: s.duration_is_laps ?? false,
    })),
  );
}

/** Spec §5 and issue 12: durations, one race at most, HOTLAP only for a single seat. */
function checkSessions(list: SessionWrite[], multiplayer: boolean) {
  const errors: string[] = [];
  list.forEach((s, i) => {
    if (s.duration_is_laps && s.duration > SESSION_LAPS_MAX)
      errors.push(`Session ${i + 1}: a session runs at most ${SESSION_LAPS_MAX} laps.`);
    if (multiplayer && (s.type === 'HOTLAP' || s.spawn === 'HOTLAP_START'))
      errors.push(`Session ${i + 1}: HOTLAP and HOTLAP_START are for a single seat only.`);
  });
  if (list.filter((s) => s.type === 'RACE').length > 1)
    errors.push('An event has at most one race session.');
  if (errors.length) throw new ValidationError({ sessions: errors });
}

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

/** A rig reports its load state (spec §4): stored on its seat's entry, then announced. */
export async function reportState(db: Db, calendarId: number, eventId: number, state: RigReport) {
  await db.transaction(async (tx) => {
    const flags =
      state === 'exited'
        ? { exited: true, initialized: false, launched: false }
        : state === 'initialized'
          ? { exited: false, initialized: true, launched: false }
          : { exited: false, initialized: true, launched: true };
    const updated = await tx
      .update(eventEntries)
      .set(flags)
      .where(and(eq(eventEntries.eventId, eventId), eq(eventEntries.calendarId, calendarId)))
      .returning({ id: eventEntries.id });
    if (updated.length) await publishChange(tx, 'events', eventId);
  });
}

/** What else happens around a host signal: the AC server link starts a party's server on
 *  SESSION_START and stops it on SESSION_EXIT (decision 0033). */
export interface SignalHooks {
  /** Before the seats hear the signal; a throw refuses it (nothing is sent). */
  before?: (eventId: number, signal: SignalWrite['signal']) => Promise<void>;
  /** After the signal was sent. */
  after?: (eventId: number, signal: SignalWrite['signal']) => Promise<void>;
}

/** A host signal (spec §4) to every seat of the event, on every instance. */
export async function sendSignal(
  db: Db,
  actor: AuthUser,
  eventId: number,
  body: SignalWrite,
  hooks: SignalHooks = {},
) {
  await hooks.before?.(eventId, body.signal);
  await db.transaction(async (tx) => {
    const [event] = await tx
      .select({ id: raceEvents.id })
      .from(raceEvents)
      .where(eq(raceEvents.id, eventId));
    if (!event) throw new NotFound();
    const excluded =
      body.signal === 'SESSION_START' ? [...new Set(body.excluded_calendars ?? [])] : [];
    await recordAudit(tx, actor, {
      action: 'races.signal',
      targetType: 'race_event',
      targetId: eventId,
      after: { signal: body.signal, excluded_calendars: excluded },
    });
    await publishRelay(tx, {
      topic: 'events',
      id: eventId,
      data: { type: 'signal', signal: body.signal, excluded_calendars: excluded },
    });
  });
  await hooks.after?.(eventId, body.signal);
}

/** A peer message (`{type: "server"}`) passed on to every other socket of the event. */
export async function relayPeer(
  db: Db,
  eventId: number,
  message: { data: unknown; from: number | null; socket: string },
) {
  await publishRelay(db, { topic: 'events', id: eventId, data: { type: 'server', ...message } });
}

// ---------------------------------------------------------------- socket tickets

const ticketHash = (ticket: string) => sha256Hex(ticket);

/** A one-time ticket for the event's socket, good for TICKET_SECONDS. */
export async function issueTicket(db: Db, actor: AuthUser, eventId: number) {
  const [event] = await db
    .select({ id: raceEvents.id })
    .from(raceEvents)
    .where(eq(raceEvents.id, eventId));
  if (!event) throw new NotFound();
  const ticket = crypto.randomBytes(24).toString('base64url');
  await db.insert(socketTickets).values({
    hash: ticketHash(ticket),
    userId: actor.id,
    eventId,
    expiresAt: new Date(Date.now() + TICKET_SECONDS * 1000),
  });
  // Spent and expired tickets go now and then.
  if (Math.random() < 0.05)
    await db.delete(socketTickets).where(sql`${socketTickets.expiresAt} < now()`);
  return { ticket, expires_in: TICKET_SECONDS };
}

/** Spends a ticket: the user it was made for, or null (unknown, used, expired, other event). */
export async function redeemTicket(db: Db, ticket: string, eventId: number) {
  const [row] = await db
    .delete(socketTickets)
    .where(
      and(
        eq(socketTickets.hash, ticketHash(ticket)),
        eq(socketTickets.eventId, eventId),
        gt(socketTickets.expiresAt, new Date()),
      ),
    )
    .returning({ userId: socketTickets.userId });
  return row?.userId ?? null;
}

// ---------------------------------------------------------------- presets, assists, skins

function toPreset(p: typeof racePresets.$inferSelect): Preset {
  return {
    id: p.id,
    name: p.name,
    track: p.trackId,
    cars: p.carIds,
    sessions: p.sessions,
    assists: p.assists,
    penalties: p.penalties,
    fixed_setup: p.fixedSetup,
    drift_mode: p.driftMode,
  };
}

export async function listPresets(db: Db): Promise<Preset[]> {
  const rows = await db
    .select()
    .from(racePresets)
    .orderBy(asc(racePresets.name), asc(racePresets.id));
  return rows.map(toPreset);
}

/** POST /races/presets: the event's settings saved under a name. */
export async function createPreset(db: Db, actor: AuthUser, body: PresetCreate): Promise<Preset> {
  return db.transaction(async (tx) => {
    const [event] = await loadEvents(tx, [body.event]);
    if (!event)
      throw ValidationError.field('event', `Invalid pk "${body.event}" - object does not exist.`);
    const sessions: PresetSession[] = event.sessions.map((s) => ({
      name: s.name,
      type: s.type,
      spawn: s.spawn,
      duration: s.duration,
      duration_is_laps: s.duration_is_laps,
    }));
    const [row] = await tx
      .insert(racePresets)
      .values({
        name: body.name,
        trackId: event.track,
        carIds: event.cars,
        sessions,
        assists: event.assists,
        penalties: event.penalties,
        fixedSetup: event.fixed_setup,
        driftMode: event.drift_mode,
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'races.create_preset',
      targetType: 'race_preset',
      targetId: row.id,
      after: { name: body.name, event: body.event },
    });
    return toPreset(row);
  });
}

export async function deletePreset(db: Db, actor: AuthUser, id: number) {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(racePresets).where(eq(racePresets.id, id)).returning();
    if (!row) throw new NotFound();
    await recordAudit(tx, actor, {
      action: 'races.delete_preset',
      targetType: 'race_preset',
      targetId: id,
      before: { name: row.name },
    });
  });
}

export const listAssists = (): Assist[] => ASSISTS.map((id) => ({ id, name: ASSIST_NAMES[id] }));

export function listSkins(
  db: Db,
  query: PaginationQuery & { car?: number; search?: string },
): Promise<Paginated<Skin>> {
  const filters = and(
    query.car === undefined ? undefined : eq(skins.carId, query.car),
    query.search ? sql`${skins.name} ilike ${containsPattern(query.search)}` : undefined,
  );
  return paginate(
    query,
    async () =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(skins)
          .where(filters)
      )[0].n,
    async (limit, offset) =>
      (
        await db
          .select()
          .from(skins)
          .where(filters)
          .orderBy(asc(skins.name), asc(skins.id))
          .limit(limit)
          .offset(offset)
      ).map((s) => ({ id: s.id, car: s.carId, key: s.key, name: s.name })),
  );
}

/** The caller's own location (the parties page's default). */
export async function locationOf(db: Db, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ locationId: users.locationId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.locationId ?? null;
}

/** Active, undeleted users whose name, racer name or e-mail holds every word, by name. */
export async function searchDrivers(db: Db, search: string | undefined): Promise<Driver[]> {
  const words = (search ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  const name = displayNameSql(users);
  const rows = await db
    .select({ id: users.id, name, racerName: users.racerName })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        isNull(users.deletedAt),
        ...words.map(
          (w) =>
            sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.racerName} || ' ' || ${users.email}) ilike ${containsPattern(w)}`,
        ),
      ),
    )
    .orderBy(asc(name), asc(users.id))
    .limit(DRIVERS_MAX);
  return rows.map((r) => ({ id: r.id, name: r.name ?? '', racer_name: r.racerName }));
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
