import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { displayNameOfAlias } from '../../lib/display-name-sql';
import { DateTime } from 'luxon';
import {
  BLACKED_OUT_MESSAGE,
  DELETED_MESSAGE,
  type PlannerAttendance,
  type PlannerBook,
  type PlannerBookPrice,
  type PlannerBookQuote,
  ALL_LOCATIONS,
  type PlannerDayWire,
  type PlannerEntry,
  type PlannerDelete,
  type PlannerDeleteQuote,
  type PlannerMove,
  type PlannerRefundQuote,
} from '@paddock/contract/planner';
import { REASON_REQUIRED } from '@paddock/contract/refunds';
import { MIXED_CURRENCIES_MESSAGE } from '@paddock/contract/money';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import { calendarTypes, calendars, locations } from '../../db/schema/venue';
import {
  dayBounds,
  daySlots,
  inWindow,
  isoInZone,
  SLOT_MINUTES,
  viewWindow,
} from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { NotFound, PaymentError, ValidationError } from '../../plugins/errors';
import { chargeSavedCard, type Queryable } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import * as repo from '../reservations/reservations.repo';
import {
  displayName,
  insertReservations,
  resolveSeatSlots,
} from '../reservations/reservations.service';
import { priceBooking } from '../../lib/pricing';
import { isClubMemberInGoodStanding } from '../../plugins/club-membership';
import { recordAudit } from '../audit/audit.service';
import { finishRefunds } from '../refunds/card-refunds';
import { findReservationForRefund, refundInTransaction } from '../refunds/record-refund';
import type { RefundContext } from '../refunds/refund-context';
import { seatFreed } from '../waitlist/waitlist.service';
import { moveReservation } from '../refunds/move-reservation';
import { settleCheckoutOf } from '../refunds/stopped-payment';
import { quoteCancel } from '../refunds/refunds.service';
import { refundView } from '../refunds/refund-view';
import { sendNothingBackMail } from '../refunds/kept-mail';
import { formatMoney } from '@paddock/contract/money';
import { oweBookingConfirmation } from '../checkout/receipts-owed';

function toEntry(row: repo.ReservationRow): PlannerEntry {
  return {
    id: row.id,
    calendar: row.calendarId,
    slot: row.slot,
    user: row.userId,
    user_display_name: row.userId === null ? null : displayName(row.user),
    paid: row.paid,
    is_blackout: row.isBlackout,
    notes: row.notes,
    created_by_name: row.createdById === null ? null : displayName(row.creator),
    attendance:
      row.attendance === 'checked_in' || row.attendance === 'no_show' ? row.attendance : null,
  };
}

/** The local slot that contains `now` (its :00/:30 start). */
export function slotAround(now: Date, zone: string): string {
  const dt = DateTime.fromJSDate(now, { zone });
  return dt
    .set({ minute: dt.minute - (dt.minute % SLOT_MINUTES), second: 0, millisecond: 0 })
    .toFormat("yyyy-MM-dd'T'HH:mm");
}

/** The local open slots of every location shown, in order, each once. */
function openSlots(shown: (typeof locations.$inferSelect)[], date: string) {
  const bySlot = new Map<string, string>();
  for (const l of shown) {
    const hours = {
      timezone: l.timezone,
      openingHours: l.openingHours,
      specialHours: l.specialHours,
    };
    for (const s of daySlots(hours, date))
      if (!bySlot.has(s.slot)) bySlot.set(s.slot, isoInZone(new Date(s.startMs), l.timezone));
  }
  return [...bySlot].sort(([a], [b]) => a.localeCompare(b)).map(([slot, time]) => ({ slot, time }));
}

/**
 * A location's whole day for the planner (or every location's, side by side, when they share
 * one time zone): its open slots, its seats and every taken slot, as the JSON text of a
 * `PlannerDayWire`. PostgreSQL writes the rows' JSON; Node only passes it on.
 */
export async function plannerDay(
  db: Db,
  query: { date: string; location?: number | typeof ALL_LOCATIONS },
  now = new Date(),
): Promise<string> {
  // A venue has a handful of locations: one query gives the list and the one(s) shown.
  const all = await db.select().from(locations).orderBy(asc(locations.id));
  if (all.length === 0) throw new NotFound('No location is set up yet.');
  const sameZone = (l: (typeof all)[number]) => l.timezone === all[0].timezone;
  const everyOne = query.location === ALL_LOCATIONS;
  const one = everyOne
    ? null
    : query.location === undefined
      ? all[0]
      : all.find((l) => l.id === query.location);
  if (!everyOne && !one)
    throw ValidationError.field(
      'location',
      `Invalid pk "${query.location}" - object does not exist.`,
    );
  if (everyOne && !all.every(sameZone))
    throw ValidationError.field(
      'location',
      'The locations are in different time zones: choose one location.',
    );
  const shown = one ? [one] : all;
  const zone = shown[0].timezone;
  const window = viewWindow('staff', zone, now);
  if (!inWindow(query.date, window))
    throw ValidationError.field('date', `Choose a date from ${window.first} to ${window.last}.`);
  const bounds = dayBounds(zone, query.date);
  const ids = shown.map((l) => l.id);
  const [seats, rows] = await Promise.all([
    db
      .select({
        id: calendars.id,
        name: calendars.name,
        type_name: calendarTypes.name,
        location: calendars.locationId,
      })
      .from(calendars)
      .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
      .where(and(inArray(calendars.locationId, ids), eq(calendars.active, true)))
      .orderBy(
        asc(calendars.locationId),
        asc(calendars.sortOrder),
        asc(calendars.name),
        asc(calendars.id),
      ),
    // A busy day is ten thousand rows: PostgreSQL writes them as JSON arrays, and each person's
    // name once, and Node sends the text as it is.
    db.execute<{ entries: string; people: string }>(sql`
      with day as (
        select r.id, r.calendar_id, r.slot, r.user_id, r.paid, r.is_blackout, r.notes,
          r.created_by_id,
          case when r.attendance in ('checked_in', 'no_show') then r.attendance end as attendance
        from reservations r
        join calendars k on k.id = r.calendar_id
        where k.location_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
          and r.cancelled_at is null
          and r.time >= ${bounds.from} and r.time < ${bounds.to}
      )
      select
        (select coalesce(json_agg(json_build_array(id, calendar_id, slot, user_id, paid,
           is_blackout, notes, created_by_id, attendance) order by calendar_id, slot), '[]')
         from day)::text as entries,
        (select coalesce(json_object_agg(u.id, ${displayNameOfAlias('u')}), '{}')
         from users u
         where u.id in (select user_id from day union select created_by_id from day))::text as people`),
  ]);
  const place = (l: (typeof all)[number]) => ({
    id: l.id,
    name: l.name,
    timezone: l.timezone,
    same_zone: sameZone(l),
  });
  const head: Omit<PlannerDayWire, 'entries' | 'people'> = {
    date: query.date,
    location: one ? place(one) : null,
    locations: all.map(place),
    now_slot: slotAround(now, zone),
    slots: openSlots(shown, query.date),
    seats,
  };
  const { entries, people } = rows.rows[0];
  return `${JSON.stringify(head).slice(0, -1)},"people":${people},"entries":${entries}}`;
}

/** What the trail keeps of a reservation. */
const snapshot = (row: repo.ReservationRow) => ({
  calendar: row.calendarId,
  slot: row.slot,
  user: row.userId,
  paid: row.paid,
  amount_cents: row.amountCents,
  is_blackout: row.isBlackout,
  notes: row.notes,
});

/** Live reservations by id, all of them or a 400 naming the missing ones. */
async function liveRows(db: Queryable, ids: number[]): Promise<repo.ReservationRow[]> {
  const unique = [...new Set(ids)];
  const rows = (await repo.findRowsByIds(db, unique)).filter((r) => r.cancelledAt === null);
  if (rows.length !== unique.length) {
    const found = new Set(rows.map((r) => r.id));
    const missing = unique.filter((id) => !found.has(id));
    throw ValidationError.field(
      'reservations',
      `Invalid pk "${missing[0]}" - object does not exist.`,
    );
  }
  return rows;
}

const seatsOf = (rows: { calendarId: number }[]) => [...new Set(rows.map((r) => r.calendarId))];

async function announce(db: Queryable, seatIds: number[]) {
  for (const seat of seatIds) await publishChange(db, 'reservations', seat);
}

const slotField = (i: number, name: string) => `slots.${i}.${name}`;

/** Blackout Selected Times: every selected slot free, or nothing changes (spec staff §5). */
export async function blackout(
  db: Db,
  caller: AuthUser,
  body: { slots: { calendar: number; slot: string }[]; notes: string },
  now = new Date(),
) {
  const resolved = await resolveSeatSlots(db, body.slots, 'staff', now, slotField, 'blackout');
  const ids = await db.transaction(async (tx) => {
    const inserted = await insertReservations(
      tx,
      resolved.map(({ seat, slot }) => ({
        calendarId: seat.id,
        slot: slot.slot,
        time: new Date(slot.startMs),
        userId: null,
        paid: false,
        amountCents: 0,
        isBlackout: true,
        notes: body.notes,
        createdById: caller.id,
      })),
    ).catch((error: unknown) => {
      if (error instanceof ValidationError)
        throw ValidationError.nonField(
          'Blackout only works on free times: one of them was just taken.',
        );
      throw error;
    });
    await announce(tx, seatsOf(resolved.map((r) => ({ calendarId: r.seat.id }))));
    await recordAudit(tx, caller, {
      action: 'planner.blackout',
      targetType: 'reservation',
      after: { reservations: inserted, slots: body.slots, notes: body.notes },
    });
    return inserted;
  });
  return { detail: BLACKED_OUT_MESSAGE, entries: (await repo.findRowsByIds(db, ids)).map(toEntry) };
}

/**
 * Delete Reservations: every selected one, or none (they stay on the books as cancelled). With
 * `refund`, each driver's booking is cancelled with its refund in the same transaction (the card
 * part is sent after the commit); without it nothing goes back, as the planner always did.
 */
export async function deleteEntries(
  db: Db,
  caller: AuthUser,
  body: PlannerDelete,
  refunds?: RefundContext,
  now = new Date(),
) {
  const reason = body.reason ?? '';
  if (body.refund === 'none' && reason === '')
    throw ValidationError.field('reason', REASON_REQUIRED);
  // Each booking's checkout ends first (a crash's is charged or known unpaid); one whose payment
  // waits for the customer's bank is refused, saying why, until it ends (decision 0114).
  if (refunds)
    for (const row of await liveRows(db, body.reservations))
      if (!row.isBlackout) await settleCheckoutOf(refunds, caller, row.id);
  const recorded = await db.transaction(async (tx) => {
    const rows = await liveRows(tx, body.reservations);
    const made = [];
    const nothingBack: number[] = [];
    if (body.refund && refunds) {
      for (const row of rows.filter((r) => !r.isBlackout)) {
        const locked = await findReservationForRefund(tx, row.id, true);
        if (!locked || locked.cancelledAt)
          throw ValidationError.field(
            'reservations',
            `Invalid pk "${row.id}" - object does not exist.`,
          );
        const refund = await refundInTransaction(
          tx,
          caller,
          locked,
          { choice: body.refund, reason, cancel: true },
          now,
        );
        if (refund) made.push(refund);
        else nothingBack.push(row.id);
      }
    } else nothingBack.push(...rows.filter((r) => !r.isBlackout).map((r) => r.id));
    await repo.cancelReservations(
      tx,
      rows.map((r) => r.id),
      caller.id,
    );
    await announce(tx, seatsOf(rows));
    await recordAudit(
      tx,
      caller,
      rows.map((row) => ({
        action: 'planner.delete',
        targetType: 'reservation',
        targetId: row.id,
        subjectUserId: row.userId,
        before: snapshot(row),
        ...(body.refund ? { after: { refund: body.refund, reason } } : {}),
      })),
    );
    return { made, nothingBack, freed: rows.filter((r) => !r.isBlackout) };
  });
  let back: string[][] = [];
  if (refunds) {
    const done = await finishRefunds(refunds, recorded.made);
    // Each customer hears once: the refund receipt, or why nothing comes back (issue 41).
    for (const id of recorded.nothingBack)
      await sendNothingBackMail(refunds, { reservationId: id, kind: 'cancel' });
    for (const row of recorded.freed) await seatFreed(refunds, row.calendarId, row.slot);
    back = await Promise.all(
      done.flatMap((r) => (r ? [refundView(db, r).then((v) => v.refund.lines)] : [])),
    );
  }
  // "Successfully deleted" (spec staff §8), then the same money the dialog quoted.
  const detail =
    recorded.freed.length === 0 ? DELETED_MESSAGE : `${DELETED_MESSAGE}. ${refundSummary(back)}`;
  return { detail, entries: [] };
}

const NOTHING_PAID = 'Nothing was paid for this booking, so nothing comes back.';

/** What goes back, in one sentence: every booking's lines, or that nothing does. */
export function refundSummary(lineSets: string[][]): string {
  const lines = lineSets.flat().filter((l) => l !== NOTHING_PAID && !/ is kept under /.test(l));
  if (lines.length === 0) return 'Nothing goes back to the customer.';
  return `${lines.join('; ')}.`;
}

/**
 * What Delete Reservations would give back, booking by booking: each the single cancel's own
 * quote (one rule), before staff confirm (issue 41).
 */
export async function quoteDelete(
  db: Db,
  caller: AuthUser,
  body: PlannerDeleteQuote,
  now = new Date(),
): Promise<PlannerRefundQuote> {
  const rows = (await liveRows(db, body.reservations)).filter(
    (r) => !r.isBlackout && r.userId !== null,
  );
  const bookings = [];
  for (const row of rows) {
    const quote = await quoteCancel(db, caller, row.id, body.refund ?? 'policy', now);
    bookings.push({
      reservation: row.id,
      customer: displayName(row.user),
      calendar_name: row.calendarName,
      slot: row.slot,
      currency: row.currency,
      total_cents: quote.refund.total_cents,
      kept_cents: quote.refund.kept_cents,
      lines: quote.refund.lines,
    });
  }
  return { bookings, summary: refundSummary(bookings.map((b) => b.lines)) };
}

/**
 * What a desk booking costs: one booking at the first seat's location, fees and tax as the
 * customer's checkout prices them (the one pricing rule, `priceBooking`). The quote and the
 * booking both come from here, so the dialog shows what is then charged or owed.
 */
export async function deskPricing(
  db: Db,
  /** `user` null: a walk-in not yet known (a new customer: no club). */
  body: { user: number | null; slots: PlannerBook['slots'] },
  now: Date,
) {
  if (body.user !== null && !(await repo.userExists(db, body.user)))
    throw ValidationError.field('user', `Invalid pk "${body.user}" - object does not exist.`);
  const resolved = await resolveSeatSlots(db, body.slots, 'staff', now, slotField, {
    userId: body.user,
  });
  const member = body.user !== null && (await isClubMemberInGoodStanding(db, body.user));
  const location = resolved[0].seat.location;
  if (resolved.some(({ seat }) => seat.location.currency !== location.currency))
    throw ValidationError.field('slots', MIXED_CURRENCIES_MESSAGE);
  const pricing = priceBooking({
    items: resolved.map(({ seat }) => ({ costCents: seat.costCents })),
    bookingFeeCents: location.bookingFeeCents,
    bookingFeesThreshold: location.bookingFeesThreshold,
    salesTaxRatePercent: location.salesTaxRatePercent,
    clubMember: member,
    voucherBalanceCents: null,
    clubDiscountPercent: 0,
  });
  return { resolved, location, pricing };
}

/** The price the Book for a Customer dialog shows before it books. */
export async function quoteBooking(
  db: Db,
  body: PlannerBookQuote,
  now = new Date(),
): Promise<PlannerBookPrice> {
  return priceView(await deskPricing(db, body, now));
}

/** A desk price as the dialogs show it (Book for a Customer, Walk-in now). */
export function priceView({
  resolved,
  location,
  pricing,
}: Awaited<ReturnType<typeof deskPricing>>): PlannerBookPrice {
  return {
    currency: location.currency,
    lines: resolved.map(({ seat, slot }, i) => ({
      calendar: seat.id,
      calendar_name: seat.name,
      slot: slot.slot,
      cost_cents: pricing.lines[i].costCents,
      fee_cents: pricing.lines[i].feeCents,
    })),
    fees_waived: pricing.feesWaived,
    subtotal_cents: pricing.subtotalCents,
    tax_cents: pricing.salesTaxCents,
    total_cents: pricing.totalCents,
  };
}

/**
 * Book free slots for a customer at the desk. `card`: their saved card pays now, and a decline
 * books nothing; `desk`: the slots stay unpaid (the outstanding balance) until paid at the desk.
 */
export async function bookFor(
  db: Db,
  payments: PaymentProvider,
  caller: AuthUser,
  body: PlannerBook,
  now = new Date(),
) {
  const { resolved, location, pricing } = await deskPricing(db, body, now);
  const ids = await db.transaction(async (tx) => {
    const inserted = await insertReservations(
      tx,
      resolved.map(({ seat, slot }, i) => ({
        calendarId: seat.id,
        slot: slot.slot,
        time: new Date(slot.startMs),
        userId: body.user,
        paid: false,
        // Each booking at its own price: the one split (lib/money.ts through priceBooking).
        amountCents: pricing.lines[i].amountCents,
        bookingFeeCents: pricing.lines[i].feeCents,
        taxCents: pricing.lines[i].taxCents,
        notes: body.payment === 'desk' ? 'Pay at desk' : '',
        createdById: caller.id,
      })),
    );
    let chargeId: number | null = null;
    if (body.payment === 'card' && pricing.totalCents > 0) {
      const key = crypto.createHash('sha256').update(inserted.join(',')).digest('hex').slice(0, 24);
      const outcome = await chargeSavedCard(tx, payments, {
        userId: body.user,
        amountCents: pricing.totalCents,
        currency: location.currency,
        notes: `Desk booking (${inserted.length} slot${inserted.length === 1 ? '' : 's'})`,
        idempotencyKey: `desk-${body.user}-${key}`,
        kind: 'booking',
      });
      if (!outcome.ok) throw new PaymentError(outcome.message);
      chargeId = outcome.charge.id;
    }
    if (body.payment === 'card') await repo.markPaid(tx, inserted, chargeId);
    // One mail for the sale, after the commit (issue 41): the receipt of a card payment, or what
    // is owed at the desk, with the seat, fee and tax lines the dialog showed.
    await oweBookingConfirmation(tx, {
      reference:
        inserted.length === 1
          ? `Reservation #${inserted[0]}`
          : `Reservations #${inserted.join(', #')}`,
      userId: body.user,
      locationId: location.id,
      totalCents: pricing.totalCents,
      items: resolved.map(({ seat, slot }) => ({
        calendarId: seat.id,
        time: new Date(slot.startMs).toISOString(),
      })),
      reservationIds: inserted,
      payment: {
        by: body.payment,
        seatsCents: pricing.lines.reduce((n, l) => n + l.costCents, 0),
        feesCents: pricing.lines.reduce((n, l) => n + l.feeCents, 0),
        taxCents: pricing.salesTaxCents,
        voucher: null,
        credits: null,
      },
    });
    await announce(tx, seatsOf(resolved.map((r) => ({ calendarId: r.seat.id }))));
    await recordAudit(tx, caller, {
      action: 'planner.book',
      targetType: 'reservation',
      subjectUserId: body.user,
      after: {
        reservations: inserted,
        slots: body.slots,
        payment: body.payment,
        total_cents: pricing.totalCents,
      },
    });
    return inserted;
  });
  const rows = await repo.findRowsByIds(db, ids);
  return {
    detail: body.payment === 'card' ? 'Booked and paid by card.' : 'Booked, to pay at the desk.',
    entries: rows.map(toEntry),
    // What the sale owes, so the desk can take it at once for exactly these (decision 0116).
    ...(body.payment === 'desk'
      ? {
          payment_due: {
            user: body.user,
            currency: location.currency,
            total_cents: pricing.totalCents,
            bookings: [...rows]
              .sort((a, b) => a.time.getTime() - b.time.getTime() || a.id - b.id)
              .map((r) => ({ id: r.id, amount_cents: r.amountCents })),
          },
        }
      : {}),
  };
}

/**
 * Moves one reservation to another seat or time; the slot's unique index picks one winner. A
 * driver's booking moves as the customer's own move does, price difference and all (charged to
 * the card, or given back, or owed when unpaid: `moveReservation`, one rule); a blackout just
 * moves.
 */
export async function move(
  db: Db,
  caller: AuthUser,
  body: PlannerMove,
  refunds: RefundContext,
  now = new Date(),
) {
  const [found] = await repo.findRowsByIds(db, [body.reservation]);
  if (found && found.cancelledAt === null && !found.isBlackout && found.userId !== null) {
    const done = await moveReservation(
      refunds,
      caller,
      found.id,
      { calendar: body.calendar, slot: body.slot, run: body.run },
      now,
      'planner.move',
    );
    const rows = await repo.findRowsByIds(db, done.reservation_ids);
    const moved = rows.find((r) => r.id === found.id)!;
    const back = done.refunds.reduce((sum, r) => sum + r.refund.total_cents, 0);
    const money =
      done.charge_cents > 0
        ? ` The difference, ${formatMoney(done.charge_cents, moved.currency)}, was charged to the saved card.`
        : back > 0
          ? ` The difference, ${formatMoney(back, moved.currency)}, goes back to the customer.`
          : '';
    return { detail: `Moved to ${moved.calendarName}.${money}`, entries: rows.map(toEntry) };
  }
  const [{ seat, slot }] = await resolveSeatSlots(
    db,
    [{ calendar: body.calendar, slot: body.slot }],
    'staff',
    now,
    (_i, name) => name,
    // Only a blackout gets here: a driver's booking took the one move road above.
    'blackout',
  );
  const row = await db.transaction(async (tx) => {
    const [current] = await liveRows(tx, [body.reservation]).catch(() => {
      throw ValidationError.field(
        'reservation',
        `Invalid pk "${body.reservation}" - object does not exist.`,
      );
    });
    try {
      await tx
        .update(reservations)
        .set({
          calendarId: seat.id,
          slot: slot.slot,
          time: new Date(slot.startMs),
          updatedAt: new Date(),
        })
        .where(eq(reservations.id, current.id));
    } catch (error) {
      if (repo.isSlotTaken(error))
        throw ValidationError.nonField(
          'Sorry, one of the simulators you selected is no longer available',
        );
      throw error;
    }
    await announce(tx, [...new Set([current.calendarId, seat.id])]);
    await recordAudit(tx, caller, {
      action: 'planner.move',
      targetType: 'reservation',
      targetId: current.id,
      subjectUserId: current.userId,
      before: { calendar: current.calendarId, slot: current.slot },
      after: { calendar: seat.id, slot: slot.slot },
    });
    return current;
  });
  const [moved] = await repo.findRowsByIds(db, [row.id]);
  return { detail: `Moved to ${moved.calendarName}.`, entries: [toEntry(moved)] };
}

/** Checked in / no-show / neither, for drivers' reservations (not blackouts). */
export async function markAttendance(
  db: Db,
  caller: AuthUser,
  body: PlannerAttendance,
  refunds?: RefundContext,
  now = new Date(),
) {
  const made: Awaited<ReturnType<typeof refundInTransaction>>[] = [];
  const nothingBack: number[] = [];
  const rows = await db.transaction(async (tx) => {
    const found = await liveRows(tx, body.reservations);
    if (found.some((r) => r.isBlackout))
      throw ValidationError.field('reservations', 'A blackout has no driver to check in.');
    // A no-show is a late cancellation: whatever the policy gives back for one goes back now.
    if (body.attendance === 'no_show' && refunds)
      for (const row of found.filter((r) => r.attendance !== 'no_show')) {
        const locked = await findReservationForRefund(tx, row.id, true);
        if (!locked) continue;
        const refund = await refundInTransaction(
          tx,
          caller,
          locked,
          { choice: 'no_show', reason: 'No-show', cancel: false },
          now,
        );
        if (refund) made.push(refund);
        else nothingBack.push(row.id);
      }
    await tx
      .update(reservations)
      .set({ attendance: body.attendance, updatedAt: new Date() })
      .where(
        inArray(
          reservations.id,
          found.map((r) => r.id),
        ),
      );
    await announce(tx, seatsOf(found));
    await recordAudit(
      tx,
      caller,
      found.map((row) => ({
        action: 'planner.attendance',
        targetType: 'reservation',
        targetId: row.id,
        subjectUserId: row.userId,
        before: { attendance: row.attendance },
        after: { attendance: body.attendance },
      })),
    );
    return found;
  });
  if (refunds) {
    await finishRefunds(refunds, made);
    for (const id of nothingBack)
      await sendNothingBackMail(refunds, { reservationId: id, kind: 'no_show' });
  }
  const detail =
    body.attendance === 'checked_in'
      ? 'Checked in.'
      : body.attendance === 'no_show'
        ? 'Marked as no-show.'
        : 'Attendance cleared.';
  return {
    detail,
    entries: (
      await repo.findRowsByIds(
        db,
        rows.map((r) => r.id),
      )
    ).map(toEntry),
  };
}
