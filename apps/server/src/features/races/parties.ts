// Parties: seats racing together on the host's event (a party set up for later: an event of its
// own, decision 0101); reading, hosting, renaming, joining, leaving and ending one.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  uniquePartyName,
  type Party,
  PARTY_STARTED,
  type PartyHost,
  type PartyUpdate,
  type PartyMember,
  type PartyMemberAdd,
  type RaceEvent,
} from '@paddock/contract/races';
import type { Db } from '../../db/client';
import {
  eventEntries,
  eventSessions,
  parties,
  partyMembers,
  raceEvents,
} from '../../db/schema/races';
import { calendars } from '../../db/schema/venue';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import { loadEvents, getEvent } from './load-events';
import { defaultSessions, replaceSessions } from './event-sessions';
import { checkSeatFree, partyStart } from './party-start';
import { placesOutOfService } from './party-seats-out';

const SEAT_IN_PARTY = 'This seat is already in a party.';

const OTHER_LOCATION = "This seat is not at the party's location.";

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
  const broken = await placesOutOfService(db, partyIds);
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
        .map((m) => ({
          ...toMember(m.member, m.calendarName, event),
          out_of_service: broken.has(`${p.id}|${m.member.calendarId}`),
        })),
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

/** The host's default party name, not one a party of the location already has. */
async function freshDefaultName(tx: Queryable, seat: { name: string; locationId: number }) {
  const names = await tx
    .select({ name: parties.name })
    .from(parties)
    .where(eq(parties.locationId, seat.locationId));
  return uniquePartyName(
    seat.name,
    names.map((n) => n.name),
  );
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
    const name = body.name?.trim() || (await freshDefaultName(tx, seat));
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
      // The party by name too: the row still reads after the party is gone.
      after: { party: party.name, calendar: seat.id },
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
      before: { party: party.name, calendar: member.calendarId },
    });
    await announceParty(tx, party.locationId, [
      party.hostEventId,
      await ownEventId(tx, member.calendarId),
    ]);
  }
}
