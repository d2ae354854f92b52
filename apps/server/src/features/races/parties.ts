// Parties: seats racing together on the host's event; reading, hosting, renaming, joining,
// leaving and ending one.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  defaultPartyName,
  type Party,
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
async function lockSeats(tx: Queryable, ids: number[]) {
  await tx.execute(
    sql`select id from calendars where id in (${sql.join(
      [...ids].sort((a, b) => a - b).map((id) => sql`${id}`),
      sql`, `,
    )}) order by id for update`,
  );
}

async function inParty(tx: Queryable, calendarId: number) {
  const [row] = await tx
    .select({ id: partyMembers.id })
    .from(partyMembers)
    .where(eq(partyMembers.calendarId, calendarId));
  return Boolean(row);
}

async function announceParty(tx: Queryable, locationId: number, eventIds: number[]) {
  await publishChange(tx, 'parties', locationId);
  for (const id of eventIds) await publishChange(tx, 'events', id);
}

/** POST /races/parties/host: the seat hosts a new party; its own event becomes the party's. */
export async function hostParty(db: Db, actor: AuthUser, body: PartyHost): Promise<Party> {
  const partyId = await db.transaction(async (tx) => {
    await lockSeats(tx, [body.calendar]);
    const seat = await seatOf(tx, 'calendar', body.calendar);
    if (await inParty(tx, seat.id)) throw ValidationError.field('calendar', SEAT_IN_PARTY);
    const eventId = await ownEventId(tx, seat.id);
    const name = body.name?.trim() || defaultPartyName(seat.name);
    const [made] = await tx
      .insert(parties)
      .values({ locationId: seat.locationId, name, hostCalendarId: seat.id, hostEventId: eventId })
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
      after: { name, calendar: seat.id, event: eventId },
    });
    await announceParty(tx, seat.locationId, [eventId]);
    return made.id;
  });
  return getParty(db, partyId);
}

/** PATCH /races/parties/{id}: a new name; an empty body changes nothing. */
export async function updateParty(
  db: Db,
  actor: AuthUser,
  id: number,
  body: PartyUpdate,
): Promise<Party> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(parties).where(eq(parties.id, id)).for('update');
    if (!current) throw new NotFound();
    if (body.name === undefined || body.name === current.name) return;
    await tx.update(parties).set({ name: body.name }).where(eq(parties.id, id));
    await recordAudit(tx, actor, {
      action: 'races.rename_party',
      targetType: 'party',
      targetId: id,
      before: { name: current.name },
      after: { name: body.name },
    });
    await publishChange(tx, 'parties', current.locationId);
  });
  return getParty(db, id);
}

/** DELETE /races/parties/{id}: every member gets its own event back. */
export async function deleteParty(db: Db, actor: AuthUser, id: number) {
  await db.transaction(async (tx) => {
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
    await recordAudit(tx, actor, {
      action: 'races.delete_party',
      targetType: 'party',
      targetId: id,
      before: { name: party.name, members: members.map((m) => m.calendarId) },
    });
    const guestEvents: number[] = [];
    for (const m of members)
      if (m.calendarId !== party.hostCalendarId)
        guestEvents.push(await ownEventId(tx, m.calendarId));
    await announceParty(tx, party.locationId, [party.hostEventId, ...guestEvents]);
  });
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
    if (await inParty(tx, seat.id)) throw ValidationError.field('calendar', SEAT_IN_PARTY);
    const [made] = await tx
      .insert(partyMembers)
      .values({ partyId: party.id, calendarId: seat.id })
      .returning({ id: partyMembers.id });
    // The guest keeps the driver of its own entry; car and skin are the host event's choice.
    const [own] = await tx
      .select({ userId: eventEntries.userId })
      .from(eventEntries)
      .innerJoin(raceEvents, eq(raceEvents.id, eventEntries.eventId))
      .where(and(eq(raceEvents.calendarId, seat.id), eq(eventEntries.calendarId, seat.id)));
    await tx
      .insert(eventEntries)
      .values({ eventId: party.hostEventId, calendarId: seat.id, userId: own?.userId ?? null })
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
  if (member.isHost) return deleteParty(db, actor, member.partyId);
  await db.transaction(async (tx) => {
    const [party] = await tx
      .select()
      .from(parties)
      .where(eq(parties.id, member.partyId))
      .for('update');
    const deleted = await tx
      .delete(partyMembers)
      .where(eq(partyMembers.id, id))
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
  });
}
