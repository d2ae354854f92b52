import { slotIsFull } from '@paddock/contract/refunds';
import { bookSeatAtPath } from '@paddock/contract/calendars';
import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { SLOT_DATE_MESSAGE } from '@paddock/contract/calendars';
import type { WaitlistEntry, WaitlistRequest } from '@paddock/contract/refunds';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { waitlistEntries } from '../../db/schema/refunds';
import { calendars, locations } from '../../db/schema/venue';
import {
  col,
  heldForSomeoneElse,
  liveOffer,
  ownLiveHold,
  WAITLIST_ENTRIES,
} from '../../lib/booking-rule-sql';
import { findSlot, isValidSlotKey } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import type { Queryable } from '../../plugins/payments/charge-card';
import { getSettings } from '../../plugins/settings';
import { waitlistMail } from './waitlist-mail';

/**
 * The waitlist (docs/decisions/0027-cancellations-and-refunds.md): on a full slot a customer asks
 * to be told; when a seat there frees up, everyone waiting is e-mailed in the order they asked,
 * and the seat is held for the first one for `waitlist_hold_minutes` (nobody else can book it
 * meanwhile; the hold simply lapses, no job needed).
 */

export const SEATS_STILL_FREE = 'A seat is still free at this time: book it now.';
export const ALREADY_WAITING = 'You are already on the waitlist for this time.';

export async function joinWaitlist(
  db: Db,
  caller: AuthUser,
  body: WaitlistRequest,
  now = new Date(),
) {
  const [location] = await db.select().from(locations).where(eq(locations.id, body.location));
  if (!location)
    throw ValidationError.field(
      'location',
      `Invalid pk "${body.location}" - object does not exist.`,
    );
  if (!isValidSlotKey(body.slot)) throw ValidationError.field('slot', SLOT_DATE_MESSAGE);
  const slot = findSlot(location, body.slot);
  if (!slot || slot.startMs <= now.getTime())
    throw ValidationError.field('slot', 'Choose an upcoming time when the location is open.');
  const [{ seats, taken }] = await db
    .select({
      seats: sql<number>`count(*)::int`,
      taken: sql<number>`count(${reservations.id})::int`,
    })
    .from(calendars)
    .leftJoin(
      reservations,
      and(
        eq(reservations.calendarId, calendars.id),
        eq(reservations.slot, body.slot),
        isNull(reservations.cancelledAt),
      ),
    )
    .where(and(eq(calendars.locationId, location.id), eq(calendars.active, true)));
  // A seat held for someone else is not free for the caller: they may wait for it too.
  const [{ held }] = await db
    .select({ held: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .innerJoin(calendars, eq(calendars.id, waitlistEntries.heldCalendarId))
    .where(
      and(
        eq(calendars.locationId, location.id),
        eq(calendars.active, true),
        eq(waitlistEntries.slot, body.slot),
        liveOffer(WAITLIST_ENTRIES, sql`${now}`),
        ne(waitlistEntries.userId, caller.id),
      ),
    );
  if (!slotIsFull(seats, taken + held)) throw ValidationError.nonField(SEATS_STILL_FREE);
  const [row] = await db
    .insert(waitlistEntries)
    .values({ userId: caller.id, locationId: location.id, slot: body.slot })
    .onConflictDoNothing()
    .returning();
  if (!row) throw ValidationError.nonField(ALREADY_WAITING);
  const [{ position }] = await db
    .select({ position: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.locationId, location.id),
        eq(waitlistEntries.slot, body.slot),
        eq(waitlistEntries.status, 'waiting'),
        sql`${waitlistEntries.id} <= ${row.id}`,
      ),
    );
  return { id: row.id, location: location.id, slot: body.slot, position, status: row.status };
}

/**
 * The caller's own upcoming entries, soonest first: those still waiting (with their place in
 * line) and those holding a seat right now. Booked, lapsed and past entries are done.
 */
export async function listMyWaitlist(
  db: Db,
  caller: AuthUser,
  now = new Date(),
): Promise<WaitlistEntry[]> {
  const ahead = db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`waitlist_entries as ahead`)
    .where(
      sql`ahead.location_id = ${waitlistEntries.locationId} and ahead.slot = ${waitlistEntries.slot}
        and ahead.status = 'waiting' and ahead.id <= ${waitlistEntries.id}`,
    );
  const rows = await db
    .select({
      entry: waitlistEntries,
      location: locations,
      calendarName: calendars.name,
      position: sql<number>`(${ahead})`,
    })
    .from(waitlistEntries)
    .innerJoin(locations, eq(locations.id, waitlistEntries.locationId))
    .leftJoin(calendars, eq(calendars.id, waitlistEntries.heldCalendarId))
    .where(
      and(
        eq(waitlistEntries.userId, caller.id),
        or(eq(waitlistEntries.status, 'waiting'), liveOffer(WAITLIST_ENTRIES, sql`${now}`)),
      ),
    )
    .orderBy(asc(waitlistEntries.slot), asc(waitlistEntries.id));
  const out: WaitlistEntry[] = [];
  for (const { entry, location, calendarName, position } of rows) {
    const start = DateTime.fromFormat(entry.slot, "yyyy-MM-dd'T'HH:mm", {
      zone: location.timezone,
    });
    if (!start.isValid || start.toMillis() <= now.getTime()) continue;
    const offered = entry.status === 'offered';
    out.push({
      id: entry.id,
      location: location.id,
      location_name: location.name,
      slot: entry.slot,
      time: start.toUTC().toISO()!,
      status: offered ? 'offered' : 'waiting',
      position: offered ? null : position,
      hold_until: offered ? entry.holdUntil!.toISOString() : null,
      calendar: offered ? entry.heldCalendarId : null,
      calendar_name: offered ? calendarName : null,
    });
  }
  return out;
}

/**
 * The caller leaves one of their own entries (another's is 404). Leaving while a seat is held
 * for you hands the seat on to the next one waiting.
 */
export async function leaveWaitlist(
  ctx: { db: Db; mailer: Mailer; publicUrl: string; logError: (e: unknown, m: string) => void },
  caller: AuthUser,
  id: number,
  now = new Date(),
) {
  const [gone] = await ctx.db
    .delete(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, caller.id)))
    .returning();
  if (!gone) throw new NotFound();
  if (
    gone.status === 'offered' &&
    gone.heldCalendarId !== null &&
    gone.holdUntil &&
    gone.holdUntil.getTime() > now.getTime()
  )
    await seatFreed(ctx, gone.heldCalendarId, gone.slot, now);
}

/**
 * Booking a seat held for someone else is the taken-seat 400; booking one's own held seat ends
 * the hold. Called by every booking path inside its transaction, before the insert.
 */
export async function claimHeldSeats(
  db: Queryable,
  items: { calendarId: number; slot: string; userId: number | null }[],
  opts: { claim: boolean } = { claim: true },
  now = new Date(),
) {
  if (items.length === 0) return;
  // The booking statement's own rules (lib/booking-rule-sql.ts), over these seat-slots.
  const asked = JSON.stringify(
    items.map((i) => ({ calendar_id: i.calendarId, slot: i.slot, user_id: i.userId })),
  );
  const rows = sql`json_to_recordset(${asked}::json) as i(calendar_id int, slot text, user_id int)`;
  const at = {
    seat: col('i', 'calendar_id'),
    slot: col('i', 'slot'),
    user: col('i', 'user_id'),
    now: sql`${now.toISOString()}::timestamptz`,
  };
  const taken = sql`select coalesce(bool_or(${heldForSomeoneElse(at)}), false) as taken from ${rows}`;
  // One statement either way: the claim is made only when nothing is held for someone else.
  const query = opts.claim
    ? sql`with asked as (${taken}), claimed as (
        update waitlist_entries w set status = 'booked' from ${rows}
        where ${ownLiveHold('w', at)} and not (select taken from asked)
      ) select taken from asked`
    : taken;
  const { rows: answer } = await db.execute<{ taken: boolean }>(query);
  if (answer[0].taken) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
}

/**
 * A seat at `calendarId` freed up at `slot`: hold it for the first one waiting and e-mail
 * everyone waiting, in order. After the cancel's commit; a mail failure is logged, never thrown.
 */
export async function seatFreed(
  ctx: { db: Db; mailer: Mailer; publicUrl: string; logError: (e: unknown, m: string) => void },
  calendarId: number,
  slot: string,
  now = new Date(),
) {
  try {
    const settings = await getSettings(ctx.db);
    const told = await ctx.db.transaction(async (tx) => {
      const [seat] = await tx
        .select({ name: calendars.name, location: locations })
        .from(calendars)
        .innerJoin(locations, eq(locations.id, calendars.locationId))
        .where(eq(calendars.id, calendarId));
      if (!seat) return null;
      // One hold per freed seat; a live hold elsewhere at this time does not block this one.
      const waiting = await tx
        .select({ entry: waitlistEntries, email: users.email })
        .from(waitlistEntries)
        .innerJoin(users, eq(users.id, waitlistEntries.userId))
        .where(
          and(
            eq(waitlistEntries.locationId, seat.location.id),
            eq(waitlistEntries.slot, slot),
            eq(waitlistEntries.status, 'waiting'),
          ),
        )
        .orderBy(asc(waitlistEntries.id))
        .for('update', { of: waitlistEntries });
      if (waiting.length === 0) return null;
      const holdUntil = new Date(now.getTime() + settings.waitlist_hold_minutes * 60_000);
      await tx
        .update(waitlistEntries)
        .set({ status: 'offered', heldCalendarId: calendarId, holdUntil })
        .where(eq(waitlistEntries.id, waiting[0].entry.id));
      // Expired holds at this seat and time end: the seat went to the next one in line.
      await tx
        .update(waitlistEntries)
        .set({ status: 'expired' })
        .where(
          and(
            eq(waitlistEntries.heldCalendarId, calendarId),
            eq(waitlistEntries.slot, slot),
            eq(waitlistEntries.status, 'offered'),
            ne(waitlistEntries.id, waiting[0].entry.id),
          ),
        );
      return { seat, waiting, holdUntil };
    });
    if (!told) return;
    const zone = told.seat.location.timezone;
    const when = DateTime.fromFormat(slot, "yyyy-MM-dd'T'HH:mm", { zone }).toFormat(
      "ccc, LLL d, yyyy 'at' h:mm a",
    );
    const until = DateTime.fromJSDate(told.holdUntil, { zone }).toFormat('h:mm a ZZZZ');
    for (const [index, { email }] of told.waiting.entries()) {
      if (!email) continue;
      await ctx.mailer.send(
        waitlistMail({
          to: email,
          companyName: settings.company_name,
          locationName: told.seat.location.name,
          seatName: told.seat.name,
          when,
          heldForYou: index === 0,
          holdUntil: until,
          bookUrl: `${ctx.publicUrl}${bookSeatAtPath(calendarId, slot)}`,
        }),
      );
    }
  } catch (error) {
    ctx.logError(error, 'waitlist notification failed');
  }
}
