import { and, asc, eq } from 'drizzle-orm';
import type { OutOfServiceParty } from '@paddock/contract/planner';
import type { Db } from '../../db/client';
import { parties, partyMembers } from '../../db/schema/races';
import { localToday, SLOT_MINUTES, type Slot } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { addMember, leaveParty } from '../races/parties';

// A seat out of service and the parties it is in (issue 41, decision 0117): a guest's place
// follows the seat's bookings to the seat they moved to; the host's (whose event is the party's)
// and a place that cannot move stay, flagged out of service on the Parties and launcher screens.

type Seat = { id: number; location: { id: number; timezone: string } };

export type PartyPlace = OutOfServiceParty & { member: typeof partyMembers.$inferSelect };

/**
 * The parties the seat is in at the range's time: one running now when the range is today, one
 * set up for later whose start falls within the range.
 */
async function partiesHit(db: Queryable, seat: Seat, slots: Slot[], now: Date) {
  const rows = await db
    .select({ member: partyMembers, name: parties.name, startsAt: parties.startsAt })
    .from(partyMembers)
    .innerJoin(parties, eq(parties.id, partyMembers.partyId))
    .where(and(eq(partyMembers.calendarId, seat.id), eq(parties.locationId, seat.location.id)))
    .orderBy(asc(parties.createdAt), asc(parties.id));
  const from = slots[0].startMs;
  const to = slots[slots.length - 1].startMs + SLOT_MINUTES * 60_000;
  const today = slots[0].slot.slice(0, 10) === localToday(seat.location.timezone, now);
  return rows.filter(({ startsAt }) =>
    startsAt === null || startsAt.getTime() <= now.getTime()
      ? today
      : startsAt.getTime() >= from && startsAt.getTime() < to,
  );
}

/**
 * Where each party place goes: a guest to the seat the first of the seat's moved bookings went
 * to (the driver follows their booking), else nowhere (flagged).
 */
export async function planPartyPlaces(
  db: Queryable,
  seat: Seat,
  slots: Slot[],
  moves: { to_calendar: number | null; to_calendar_name: string | null }[],
  now: Date,
): Promise<PartyPlace[]> {
  const target = moves.find((m) => m.to_calendar !== null) ?? null;
  return (await partiesHit(db, seat, slots, now)).map(({ member, name }) => ({
    member,
    party: member.partyId,
    party_name: name,
    is_host: member.isHost,
    to_calendar: member.isHost ? null : (target?.to_calendar ?? null),
    to_calendar_name: member.isHost ? null : (target?.to_calendar_name ?? null),
  }));
}

/**
 * Moves the planned places in the caller's transaction, each in a savepoint: a place the other
 * seat cannot take (already in that party, or in another at that time) stays, flagged.
 */
export async function movePartyPlaces(
  tx: Queryable,
  caller: AuthUser,
  places: PartyPlace[],
): Promise<OutOfServiceParty[]> {
  const done: OutOfServiceParty[] = [];
  for (const { member, ...place } of places) {
    if (place.to_calendar === null) {
      done.push(place);
      continue;
    }
    const to = place.to_calendar;
    try {
      await tx.transaction(async (sp) => {
        await leaveParty(sp, caller, member);
        // A savepoint is a drizzle database too: addMember's own transaction nests in it.
        await addMember(sp as unknown as Db, caller, { party: place.party, calendar: to });
      });
      done.push(place);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      done.push({ ...place, to_calendar: null, to_calendar_name: null });
    }
  }
  return done;
}
