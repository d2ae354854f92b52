import {
  ALREADY_CANCELLED,
  CANCELLED_MESSAGE,
  REASON_REQUIRED,
  type CancelQuote,
  type CancelResponse,
  type RefundChoice,
} from '@paddock/contract/refunds';
import type { Db } from '../../db/client';
import { describeDeadline, freeUntil } from '../../lib/cancellation-policy';
import { shareValueCents } from '../../lib/refund-split';
import type { AuthUser } from '../../plugins/auth';
import { Forbidden, ValidationError } from '../../plugins/errors';
import { seatFreed } from '../waitlist/waitlist.service';
import * as repo from './refunds.repo';
import { cancelledWhileWaiting, settleCheckoutOf } from './stopped-payment';
import { type RefundContext, isStaff, visible } from './refund-context';
import { type Plan, plan } from './refund-plan';
import { breakdown, voucherCodeOf, refundView } from './refund-view';
import { refundInTransaction } from './record-refund';
import { finish } from './card-refunds';
import { sendNothingBackMail } from './kept-mail';

function assertChoice(caller: AuthUser, choice: RefundChoice, reason: string) {
  if (choice !== 'policy' && !isStaff(caller)) throw new Forbidden();
  if (choice === 'none' && reason === '') throw ValidationError.field('reason', REASON_REQUIRED);
}

function assertCancellable(caller: AuthUser, row: repo.ReservationForRefund, now: Date) {
  if (row.cancelledAt) throw ValidationError.nonField(ALREADY_CANCELLED);
  if (!isStaff(caller) && row.time.getTime() <= now.getTime())
    throw ValidationError.nonField('Past reservations cannot be changed.');
}

/**
 * The quote's own line: the deadline while it is ahead; once passed, no date (a booking made
 * inside the window was never free, and a deadline before it was made reads wrong, issue 30).
 */
function forThisBooking(row: repo.ReservationForRefund, p: Plan): string {
  if (p.free)
    return `For this booking: free until ${describeDeadline(row.time, p.policy, row.location.timezone)}.`;
  return `For this booking: it starts within ${p.policy.windowHours} hours, so cancelling now is not free.`;
}

/** What cancelling now would give back, exactly as the cancel will do it. */
export async function quoteCancel(
  db: Db,
  caller: AuthUser,
  id: number,
  choice: RefundChoice = 'policy',
  now = new Date(),
): Promise<CancelQuote> {
  const row = await visible(db, caller, id);
  if (choice !== 'policy' && !isStaff(caller)) throw new Forbidden();
  assertCancellable(caller, row, now);
  const p = await plan(db, row, choice, now);
  return {
    reservation: row.id,
    choice,
    free_until: freeUntil(row.time, p.policy).toISOString(),
    free: p.free,
    policy_text: `${p.policy.text} ${forThisBooking(row, p)}`,
    paid_cents: shareValueCents(p.paid.share),
    refund: await breakdown(db, p, await voucherCodeOf(db, row)),
  };
}

export { settleCheckoutOf };

/** Cancels a booking with its refund (customers: their own, before it starts, per the policy). */
export async function cancelReservation(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  body: { refund: RefundChoice; reason: string },
  now = new Date(),
): Promise<CancelResponse> {
  assertChoice(caller, body.refund, body.reason);
  const stopped = await settleCheckoutOf(ctx, caller, id, { stopWaiting: true });
  if (stopped !== null) return cancelledWhileWaiting(ctx, caller, id, stopped);
  const refund = await ctx.db.transaction(async (tx) => {
    const row = await visible(tx, caller, id, true);
    assertCancellable(caller, row, now);
    return refundInTransaction(
      tx,
      caller,
      row,
      { choice: body.refund, reason: body.reason, cancel: true },
      now,
    );
  });
  const final = await finish(ctx, refund);
  // No refund row (kept under the policy, or nothing paid): still one mail saying so.
  if (!final) await sendNothingBackMail(ctx, { reservationId: id, kind: 'cancel' });
  const row = await repo.findReservation(ctx.db, id);
  if (row) await seatFreed(ctx, row.calendarId, row.slot);
  return {
    detail: CANCELLED_MESSAGE,
    refund: final ? await refundView(ctx.db, final) : null,
  };
}

/** Staff: the driver did not come. A no-show is a late cancellation that keeps the seat's row. */
export async function markNoShow(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  now = new Date(),
) {
  await settleCheckoutOf(ctx, caller, id);
  const refund = await ctx.db.transaction(async (tx) => {
    const row = await visible(tx, caller, id, true);
    if (row.cancelledAt) throw ValidationError.nonField(ALREADY_CANCELLED);
    if (await repo.findRefundOfReservation(tx, row.id))
      throw ValidationError.nonField('This reservation has already been refunded.');
    return refundInTransaction(
      tx,
      caller,
      row,
      { choice: 'no_show', reason: 'No-show', cancel: false },
      now,
    );
  });
  const final = await finish(ctx, refund);
  if (!final) await sendNothingBackMail(ctx, { reservationId: id, kind: 'no_show' });
  return {
    detail: 'Marked as no-show.',
    refund: final ? await refundView(ctx.db, final) : null,
  };
}
