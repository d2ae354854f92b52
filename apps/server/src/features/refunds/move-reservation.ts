import {
  DEARER_SEAT_MESSAGE,
  MOVED_MESSAGE,
  SAME_LOCATION_MESSAGE,
  SAME_PRICE_LINE,
  SAME_SLOT_MESSAGE,
  type MoveQuote,
  type MoveRequest,
  type MoveResponse,
} from '@paddock/contract/refunds';
import { formatMoney } from '@paddock/contract/money';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { isFreeCancellation } from '../../lib/cancellation-policy';
import { capCard, partOf, shareValueCents } from '../../lib/refund-split';
import { describeInZone, slotKeyAt } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { publishChange } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import { isSlotTaken } from '../reservations/reservations.repo';
import { assertRunsHold } from '../reservations/minimum-stay';
import * as reservationsRepo from '../reservations/reservations.repo';
import { resolveSeatSlots, roleOf, singleSlotPricing } from '../reservations/reservations.service';
import { claimHeldSeats, seatFreed } from '../waitlist/waitlist.service';
import {
  CardDeclined,
  chargeDifference,
  dearerDifference,
  dearerLine,
  keepDeclined,
  type DearerDifference,
} from './move-charge';
import { sendMoveChargeReceipt, sendMovedMail } from './move-charge-mail';
import * as repo from './refunds.repo';
import { finish } from './card-refunds';
import { recordRefundParts } from './record-refund';
import { visible, type RefundContext } from './refund-context';
import { plan } from './refund-plan';
import { breakdown, refundView, voucherCodeOf } from './refund-view';
import { settleCheckoutOf } from './refunds.service';
import { runMates } from './move-run';

/**
 * Moving a booking to another free seat or time at the same location
 * (docs/decisions/0034-refunds-rest.md): inside the free cancellation window for a paid booking,
 * keeping its payment. A cheaper seat gives the price difference back through the refund path,
 * split as the booking was paid; a dearer one charges the difference to the saved card
 * (docs/decisions/0040-move-to-a-dearer-seat.md).
 */

const sameField = (_index: number, name: string) => name;

type MovePlan = {
  row: repo.ReservationForRefund;
  seat: reservationsRepo.SeatForBooking;
  slot: { slot: string; startMs: number };
  differenceCents: number;
  newPriceCents: number;
  refund: Awaited<ReturnType<typeof plan>> | null;
  backCents: number;
  /** A paid booking moving to a dearer seat: what its card is charged. */
  charge: DearerDifference | null;
};

/**
 * Where to: a seat and its slot (or, from a PATCH, its start instant); `run` takes the run,
 * `rest` only its later half-hours (a session moved mid-way keeps the time already driven where
 * it was: the rig map, decision 0127).
 */
type Target = { calendar: number; slot?: string; time?: string; run: boolean; rest: boolean };
/** What a caller may send: the move's body, or a PATCH's seat and time. */
export type MoveTarget = Partial<MoveRequest> & { time?: string; rest?: boolean };

async function planMove(
  db: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  body: Omit<Target, 'run' | 'rest'>,
  now: Date,
): Promise<MovePlan> {
  if (row.cancelledAt) throw ValidationError.nonField('This reservation is already cancelled.');
  const role = roleOf(caller) === 'staff' ? 'staff' : 'customer';
  // The desk moves a driver whose session has begun or is close (a rig broke): the window is
  // the customer's rule; the money rule below is everyone's (decision 0088).
  if (role === 'customer' && row.time.getTime() <= now.getTime())
    throw ValidationError.nonField('Past reservations cannot be changed.');
  // The seat type's minimum is checked over the whole move at once (planRunMove).
  const [{ seat, slot }] = await resolveSeatSlots(
    db,
    [{ calendar: body.calendar, slot: body.slot, time: body.time }],
    role,
    now,
    sameField,
    'move',
  );
  if (seat.location.id !== row.location.id)
    throw ValidationError.field('calendar', SAME_LOCATION_MESSAGE);
  if (seat.id === row.calendarId && slot.slot === row.slot)
    throw ValidationError.field('slot', SAME_SLOT_MESSAGE);
  const p = await plan(db, row, 'full', now);
  if (role === 'customer' && row.paid && !isFreeCancellation(row.time, p.policy, now))
    throw ValidationError.nonField(
      `A paid booking can be moved until ${p.policy.windowHours} hours before it starts.`,
    );
  const userId = row.userId ?? caller.id;
  const newPrice = await singleSlotPricing(db, seat, userId);
  const newPriceCents = newPrice.totalCents;
  const [oldSeat] = await reservationsRepo.findActiveSeats(db, [row.calendarId]);
  const paidCents = shareValueCents(p.paid.share);
  const oldPrice = oldSeat
    ? await singleSlotPricing(db, oldSeat, userId)
    : { totalCents: paidCents, taxCents: p.paid.share.taxCents, feeCents: p.paid.share.feeCents };
  const differenceCents = newPriceCents - oldPrice.totalCents;
  const charge = row.paid ? dearerDifference(oldPrice, newPrice) : null;
  // A paid booking of nobody's (staff's) has no card to charge the difference to.
  if (charge && row.userId === null) throw ValidationError.field('calendar', DEARER_SEAT_MESSAGE);
  const backCents = row.paid && differenceCents < 0 ? Math.min(-differenceCents, paidCents) : 0;
  let refund = null;
  if (backCents > 0) {
    // Never more to the card than is left on its charge (the full plan's card part is capped so).
    const split = capCard(partOf(p.paid.share, backCents), p.split.cardCents);
    refund = split.totalCents > 0 ? { ...p, split } : null;
  }
  return { row, seat, slot, differenceCents, newPriceCents, refund, backCents, charge };
}

/**
 * The plan of every half-hour that moves: this one and, with `run`, the rest of its run, each
 * keeping its place in the run. The seat type's minimum holds over the result: no run it makes
 * or leaves behind is shorter (decision 0112). In an order that never lands a half-hour on one
 * of the run's own that has not moved yet.
 */
async function planRunMove(
  db: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  target: Target,
  now: Date,
  lock: boolean,
): Promise<MovePlan[]> {
  const main = await planMove(db, caller, row, target, now);
  const plans = [main];
  const offset = main.slot.startMs - row.time.getTime();
  for (const mateId of target.run ? await runMates(db, row, target.rest) : []) {
    const mate = await visible(db, caller, mateId, lock);
    const at = slotKeyAt(new Date(mate.time.getTime() + offset), main.seat.location.timezone);
    if (!at) throw ValidationError.field('slot', 'The venue is not open at this time.');
    plans.push(await planMove(db, caller, mate, { calendar: main.seat.id, slot: at }, now));
  }
  await assertRunsHold(
    db,
    {
      gone: plans.map((p) => ({
        id: p.row.id,
        userId: p.row.userId,
        seatId: p.row.calendarId,
        startMs: p.row.time.getTime(),
      })),
      come: plans.map((p) => ({
        userId: p.row.userId,
        seatId: p.seat.id,
        startMs: p.slot.startMs,
      })),
    },
    'slot',
  );
  const order = offset > 0 ? -1 : 1;
  return [main, ...plans.slice(1)].sort(
    (a, b) => order * (a.row.time.getTime() - b.row.time.getTime()),
  );
}

async function linesOf(db: Queryable, m: MovePlan) {
  if (!m.row.paid) {
    if (m.differenceCents === 0) return ['Same price: nothing is paid yet.'];
    return [
      `The new seat costs ${formatMoney(m.newPriceCents, m.row.location.currency)}, paid as before.`,
    ];
  }
  if (m.charge) return [await dearerLine(db, m.row.userId, m.charge, m.row.location.currency)];
  if (!m.refund) return [SAME_PRICE_LINE];
  const b = await breakdown(db, m.refund, await voucherCodeOf(db, m.row));
  return [
    `The new seat costs ${formatMoney(-m.differenceCents, m.row.location.currency)} less:`,
    ...b.lines,
  ];
}

/** Where to: both are required (checked after whose booking it is, see the contract). */
function required(to: MoveTarget): Target {
  const missing: Record<string, string[]> = {};
  if (to.calendar === undefined) missing.calendar = ['This field is required.'];
  if (to.slot === undefined && to.time === undefined) missing.slot = ['This field is required.'];
  if (to.calendar === undefined || Object.keys(missing).length > 0)
    throw new ValidationError(missing);
  return {
    calendar: to.calendar,
    slot: to.slot,
    time: to.time,
    run: to.run === true,
    rest: to.rest === true,
  };
}

/** What moving there would do with the money, exactly as the move will do it. */
export async function quoteMove(
  db: Queryable,
  caller: AuthUser,
  id: number,
  query: Partial<MoveRequest>,
  now = new Date(),
): Promise<MoveQuote> {
  const row = await visible(db, caller, id);
  // This half-hour's money; with `run`, the minimum checked over the whole run moving.
  const [m] = (await planRunMove(db, caller, row, required(query), now, false)).filter(
    (p) => p.row.id === row.id,
  );
  return {
    reservation: row.id,
    calendar: m.seat.id,
    calendar_name: m.seat.name,
    slot: m.slot.slot,
    price_difference_cents: m.differenceCents,
    charge_cents: m.charge?.cardCents ?? 0,
    refund: m.refund ? await breakdown(db, m.refund, await voucherCodeOf(db, row)) : null,
    lines: await linesOf(db, m),
  };
}

/**
 * Moves the booking. The reservation row is locked; the seat-slot unique index decides between
 * two moves to the same seat (one wins, the other gets the taken-seat 400); a seat held for
 * someone on the waitlist is refused too. The difference of a cheaper seat is a `move` refund;
 * that of a dearer one is charged to the card inside a savepoint, after the seat is taken: a
 * decline rolls the move back (the declined attempt stays in the transactions) and is a 400 on
 * `card`.
 */
export async function moveReservation(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  to: MoveTarget,
  now = new Date(),
  /** The trail's name for it: the customer's move, or the planner's (same rule, same money). */
  action: 'reservation.move' | 'planner.move' = 'reservation.move',
): Promise<MoveResponse> {
  await settleCheckoutOf(ctx, caller, id);
  const done = await ctx.db
    .transaction(async (tx) => {
      const row = await visible(tx, caller, id, true);
      const plans = await planRunMove(tx, caller, row, required(to), now, true);
      try {
        return await tx.transaction(async (sp) => {
          const each = [];
          for (const m of plans)
            each.push(await moveInSavepoint(ctx, sp, caller, m.row, m, action));
          return { each };
        });
      } catch (error) {
        if (!(error instanceof CardDeclined)) throw error;
        await keepDeclined(tx, error);
        return { declined: error.message };
      }
    })
    .catch((error: unknown) => {
      if (isSlotTaken(error)) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
      throw error;
    });
  if ('declined' in done) throw ValidationError.field('card', done.declined);
  const refunds = [];
  for (const one of done.each) {
    const final = await finish(ctx, one.refund);
    if (final) refunds.push({ id: one.id, view: await refundView(ctx.db, final) });
    if (one.charge) await sendMoveChargeReceipt(ctx, one.id, one.charge);
  }
  // No money moved (same price, or unpaid): the customer still hears the new time, once for
  // the whole run (issue 41); a refund or a charge said it in its own receipt.
  if (done.each.every((one) => !one.refund && !one.charge))
    await sendMovedMail(
      ctx,
      done.each.map((one) => ({ id: one.id, fromSeat: one.fromSeat, fromTime: one.fromTime })),
    );
  // The seats it left are free again (unless the run itself moved onto them): the waitlist for
  // each hears first.
  const landed = new Set(done.each.map((one) => `${one.to.calendarId}|${one.to.slot}`));
  for (const { from } of done.each)
    if (!landed.has(`${from.calendarId}|${from.slot}`))
      await seatFreed(ctx, from.calendarId, from.slot);
  const row = await repo.findReservation(ctx.db, id);
  return {
    detail: MOVED_MESSAGE,
    reservation: id,
    calendar: row!.calendarId,
    slot: row!.slot,
    charge_cents: done.each.reduce((sum, one) => sum + (one.charge?.amountCents ?? 0), 0),
    refund: refunds.find((r) => r.id === id)?.view ?? null,
    reservation_ids: done.each.map((one) => one.id).sort((a, b) => a - b),
    refunds: refunds.map((r) => r.view),
  };
}

async function moveInSavepoint(
  ctx: RefundContext,
  tx: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  m: MovePlan,
  action: string,
) {
  await claimHeldSeats(tx, [{ calendarId: m.seat.id, slot: m.slot.slot, userId: row.userId }]);
  await repo.moveReservation(tx, row.id, {
    calendarId: m.seat.id,
    slot: m.slot.slot,
    time: new Date(m.slot.startMs),
    // An unpaid booking outside a checkout owes the new seat's price.
    ...(!row.paid && row.userId !== null && row.checkoutId === null
      ? { amountCents: m.newPriceCents }
      : {}),
  });
  const moved = {
    ...row,
    calendarId: m.seat.id,
    calendarName: m.seat.name,
    slot: m.slot.slot,
    time: new Date(m.slot.startMs),
  };
  const charge =
    m.charge && row.userId !== null
      ? await chargeDifference(tx, ctx.payments, {
          reservationId: row.id,
          userId: row.userId,
          difference: m.charge,
          currency: row.location.currency,
          notes: `Move: ${m.seat.name}, ${describeInZone(moved.time, row.location.timezone)} (price difference)`,
          from: { calendarId: row.calendarId, slot: row.slot },
        })
      : null;
  await publishChange(tx, 'reservations', row.calendarId);
  await publishChange(tx, 'reservations', m.seat.id);
  const written = m.refund ? await recordMoveRefund(tx, caller, moved, m) : null;
  await recordAudit(tx, caller, {
    action,
    targetType: 'reservation',
    targetId: row.id,
    subjectUserId: row.userId,
    before: { calendar: row.calendarId, slot: row.slot },
    after: {
      calendar: m.seat.id,
      slot: m.slot.slot,
      price_difference_cents: m.differenceCents,
      charged_cents: charge?.amountCents ?? 0,
      charge: charge?.id ?? null,
      card_cents: m.refund?.split.cardCents ?? 0,
      credits: m.refund?.split.credits ?? 0,
      voucher_cents: m.refund?.split.voucherCents ?? 0,
    },
  });
  return {
    id: row.id,
    refund: written,
    charge,
    from: { calendarId: row.calendarId, slot: row.slot },
    to: { calendarId: m.seat.id, slot: m.slot.slot },
    fromSeat: row.calendarName,
    fromTime: row.time,
  };
}

/** The price difference back, as it was paid: credits and voucher now, the card after commit. */
function recordMoveRefund(
  tx: Queryable,
  caller: AuthUser,
  row: repo.ReservationForRefund,
  m: MovePlan,
) {
  return recordRefundParts(tx, caller, row, m.refund!, {
    kind: 'move',
    choice: 'policy',
    reason: `Moved to ${m.seat.name}, ${describeInZone(row.time, row.location.timezone)}`,
    keptCents: 0,
  });
}
