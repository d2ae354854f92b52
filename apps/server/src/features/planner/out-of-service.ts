import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type {
  OutOfService,
  OutOfServiceBooking,
  OutOfServicePlan,
  OutOfServiceResult,
} from '@paddock/contract/planner';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import { calendars } from '../../db/schema/venue';
import { waitlistEntries } from '../../db/schema/refunds';
import { liveOffer, WAITLIST_ENTRIES } from '../../lib/booking-rule-sql';
import { daySlots, type Slot } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import * as repo from '../reservations/reservations.repo';
import { displayName, insertReservations } from '../reservations/reservations.service';
import { finishRefunds } from '../refunds/card-refunds';
import { findReservationForRefund, refundInTransaction } from '../refunds/record-refund';
import type { RefundContext } from '../refunds/refund-context';
import { claimHeldSeats } from '../waitlist/waitlist.service';
import { sendOutOfServiceMails, type Notice } from './out-of-service-mail';
import { slotAround } from './planner.service';
import { movePartyPlaces, planPartyPlaces, type PartyPlace } from './out-of-service-parties';

/**
 * A rig breaks (issue 30, decision 0088): one seat out of service for a range of one day. Its
 * drivers move to a free seat of the same type at the same location and times, or are cancelled
 * with the refund path's refund when none is free; every time of the range becomes a blackout
 * (the mechanism availability and booking already respect); the customers are told by e-mail.
 * All of it is one transaction: a broken connection leaves nothing half-moved.
 */

type Range = { calendar: number; from: string; to: string };
type Seat = repo.SeatForBooking & { typeId: number | null };

async function seatOf(db: Queryable, id: number): Promise<Seat> {
  const [seat] = await repo.findActiveSeats(db, [id]);
  if (!seat) throw ValidationError.field('calendar', `Invalid pk "${id}" - object does not exist.`);
  const [row] = await db
    .select({ typeId: calendars.typeId })
    .from(calendars)
    .where(eq(calendars.id, id));
  return { ...seat, typeId: row.typeId };
}

/** The open slots of the range: one day, from the current slot on, `to` after `from`. */
function rangeSlots(seat: Seat, range: Range, now: Date): Slot[] {
  if (range.to.slice(0, 10) !== range.from.slice(0, 10))
    throw ValidationError.field('to', 'Choose a time on the same day as the start.');
  if (range.to < range.from) throw ValidationError.field('to', 'Choose a time after the start.');
  const zone = seat.location.timezone;
  if (range.from < slotAround(now, zone))
    throw ValidationError.field('from', 'Choose a time from now on.');
  const hours = {
    timezone: zone,
    openingHours: seat.location.openingHours,
    specialHours: seat.location.specialHours,
  };
  const slots = daySlots(hours, range.from.slice(0, 10)).filter(
    (s) => s.slot >= range.from && s.slot <= range.to,
  );
  if (slots.length === 0)
    throw ValidationError.field('from', 'The venue is not open at this time.');
  return slots;
}

/** Seats of the same type at the same location, in the planner's order. */
function comparableSeats(db: Queryable, seat: Seat) {
  return db
    .select({ id: calendars.id, name: calendars.name })
    .from(calendars)
    .where(
      and(
        eq(calendars.locationId, seat.location.id),
        seat.typeId === null ? isNull(calendars.typeId) : eq(calendars.typeId, seat.typeId),
        eq(calendars.active, true),
        ne(calendars.id, seat.id),
      ),
    )
    .orderBy(asc(calendars.sortOrder), asc(calendars.name), asc(calendars.id));
}

type Planned = {
  seat: Seat;
  slots: Slot[];
  rows: repo.ReservationRow[];
  bookings: (OutOfServiceBooking & { row: repo.ReservationRow })[];
  parties: PartyPlace[];
};

/**
 * Where each driver goes: the seat their previous half-hour went to when it is free (a visit
 * stays on one rig), else the first free comparable seat, else nowhere (cancelled). `lock`: the
 * seat's live rows are locked, so nobody books or moves them while the action runs.
 */
async function planRange(db: Queryable, range: Range, now: Date, lock: boolean): Promise<Planned> {
  const seat = await seatOf(db, range.calendar);
  const slots = rangeSlots(seat, range, now);
  const keys = slots.map((s) => s.slot);
  const live = and(
    eq(reservations.calendarId, seat.id),
    inArray(reservations.slot, keys),
    isNull(reservations.cancelledAt),
  );
  if (lock) await db.execute(sql`select id from reservations where ${live} for update`);
  const ids = (await db.select({ id: reservations.id }).from(reservations).where(live)).map(
    (r) => r.id,
  );
  const rows = (await repo.findRowsByIds(db, ids)).sort((a, b) => a.slot.localeCompare(b.slot));
  const others = await comparableSeats(db, seat);
  const taken = new Set(
    others.length === 0
      ? []
      : (
          await db
            .select({ calendarId: reservations.calendarId, slot: reservations.slot })
            .from(reservations)
            .where(
              and(
                inArray(
                  reservations.calendarId,
                  others.map((o) => o.id),
                ),
                inArray(reservations.slot, keys),
                isNull(reservations.cancelledAt),
              ),
            )
        ).map((r) => `${r.calendarId}|${r.slot}`),
  );
  // A seat held for someone on the waitlist is theirs until the hold ends.
  const held = await db
    .select({
      calendarId: waitlistEntries.heldCalendarId,
      slot: waitlistEntries.slot,
      userId: waitlistEntries.userId,
    })
    .from(waitlistEntries)
    .where(and(liveOffer(WAITLIST_ENTRIES, sql`${now}`), inArray(waitlistEntries.slot, keys)));
  const heldFor = new Map(held.map((h) => [`${h.calendarId}|${h.slot}`, h.userId]));
  const lastSeatOf = new Map<number, number>();
  const bookings = rows
    .filter((r) => !r.isBlackout)
    .map((row) => {
      const free = others.filter((o) => {
        const key = `${o.id}|${row.slot}`;
        const holder = heldFor.get(key);
        return !taken.has(key) && (holder === undefined || holder === row.userId);
      });
      const previous = row.userId === null ? undefined : lastSeatOf.get(row.userId);
      const to = free.find((o) => o.id === previous) ?? free[0] ?? null;
      if (to) {
        taken.add(`${to.id}|${row.slot}`);
        if (row.userId !== null) lastSeatOf.set(row.userId, to.id);
      }
      return {
        row,
        reservation: row.id,
        slot: row.slot,
        user: row.userId,
        user_display_name: row.userId === null ? null : displayName(row.user),
        paid: row.paid,
        to_calendar: to?.id ?? null,
        to_calendar_name: to?.name ?? null,
      };
    });
  return {
    seat,
    slots,
    rows,
    bookings,
    parties: await planPartyPlaces(db, seat, slots, bookings, now),
  };
}

const view = (range: Range, p: Planned): OutOfServicePlan => ({
  calendar: p.seat.id,
  calendar_name: p.seat.name,
  from: range.from,
  to: range.to,
  times: p.slots.length,
  bookings: p.bookings.map(({ row: _row, ...b }) => b),
  parties: p.parties.map(({ member: _member, ...place }) => place),
});

/** " In Ann's Party its place moved to Sim 2." for each party the seat was in. */
function partyWords(p: Planned): string {
  return p.parties
    .map((x) =>
      x.to_calendar_name
        ? ` In ${x.party_name} its place moved to ${x.to_calendar_name}.`
        : ` ${x.party_name} still lists it: swap the seat on the Parties screen.`,
    )
    .join('');
}

/** What taking the seat out of service would do, exactly as it will do it now. */
export async function previewOutOfService(db: Db, range: Range, now = new Date()) {
  return view(range, await planRange(db, range, now, false));
}

export async function takeOutOfService(
  ctx: RefundContext,
  caller: AuthUser,
  body: Required<OutOfService>,
  now = new Date(),
): Promise<OutOfServiceResult> {
  const done = await ctx.db
    .transaction(async (tx) => {
      const p = await planRange(tx, body, now, true);
      const moves = p.bookings.filter((b) => b.to_calendar !== null);
      await claimHeldSeats(
        tx,
        moves.map((b) => ({ calendarId: b.to_calendar!, slot: b.slot, userId: b.user })),
      );
      // The price stays what it was: the venue moved them (decision 0088).
      for (const b of moves)
        await tx
          .update(reservations)
          .set({ calendarId: b.to_calendar!, updatedAt: new Date() })
          .where(eq(reservations.id, b.reservation));
      const made = [];
      const reason = body.notes || `${p.seat.name} is out of service`;
      const cancelled = p.bookings.filter((b) => b.to_calendar === null);
      for (const b of cancelled) {
        const locked = await findReservationForRefund(tx, b.reservation, true);
        if (locked && !locked.cancelledAt)
          made.push(
            await refundInTransaction(
              tx,
              caller,
              locked,
              { choice: body.refund, reason, cancel: true },
              now,
            ),
          );
      }
      // The parties it is in: a guest's place follows the bookings, the rest stay flagged.
      p.parties = (await movePartyPlaces(tx, caller, p.parties)).map((place, i) => ({
        ...place,
        member: p.parties[i].member,
      }));
      const blackedOut = new Set(p.rows.filter((r) => r.isBlackout).map((r) => r.slot));
      const blackouts = await insertReservations(
        tx,
        p.slots
          .filter((s) => !blackedOut.has(s.slot))
          .map((s) => ({
            calendarId: p.seat.id,
            slot: s.slot,
            time: new Date(s.startMs),
            userId: null,
            paid: false,
            amountCents: 0,
            isBlackout: true,
            notes: body.notes || 'Out of service',
            createdById: caller.id,
          })),
      );
      for (const id of new Set([p.seat.id, ...moves.map((b) => b.to_calendar!)]))
        await publishChange(tx, 'reservations', id);
      await recordAudit(tx, caller, {
        action: 'planner.out_of_service',
        targetType: 'calendar',
        targetId: p.seat.id,
        after: {
          seat: p.seat.name,
          from: body.from,
          to: body.to,
          notes: body.notes,
          moved: moves.map((b) => ({
            reservation: b.reservation,
            slot: b.slot,
            to: b.to_calendar_name,
          })),
          cancelled: cancelled.map((b) => b.reservation),
          refund: body.refund,
          blackouts: blackouts.length,
          ...(p.parties.length
            ? {
                parties: p.parties.map((x) => ({
                  party: x.party_name,
                  to: x.to_calendar_name ?? 'stays, out of service',
                })),
              }
            : {}),
        },
      });
      return { p, made };
    })
    .catch((error: unknown) => {
      if (repo.isSlotTaken(error)) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
      throw error;
    });
  await finishRefunds(ctx, done.made);
  const notices: Notice[] = done.p.bookings.flatMap((b) =>
    b.user === null
      ? []
      : [
          {
            userId: b.user,
            time: b.row.time,
            from: done.p.seat.name,
            to: b.to_calendar_name,
            paid: b.paid,
          },
        ],
  );
  await sendOutOfServiceMails(ctx, done.p.seat.location, notices);
  const moved = done.p.bookings.filter((b) => b.to_calendar !== null).length;
  const cancelled = done.p.bookings.length - moved;
  return {
    ...view(body, done.p),
    detail: `${done.p.seat.name} is out of service: ${moved} moved, ${cancelled} cancelled.${partyWords(done.p)}`,
  };
}
