import {
  OTHER_SEATS_LET_GO,
  PAYMENT_STOPPED_MESSAGE,
  PAYMENT_WAITING_MESSAGE,
  type CancelResponse,
} from '@paddock/contract/refunds';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { recordAudit } from '../audit/audit.service';
import { settleCheckout } from '../checkout/finish-checkout';
import { seatFreed } from '../waitlist/waitlist.service';
import {
  openBalanceChallenges,
  stopOpenBalanceChallenges,
} from '../payment-challenges/release-stale-challenges';
import { type RefundContext, visible } from './refund-context';
import * as repo from './refunds.repo';

// A booking whose payment waits for the customer's bank (3-D Secure) and a change to it cannot
// both win (issue 40, decision 0114): a cancel stops the payment at the provider first; a move
// or a no-show is refused until the payment has ended.

/**
 * Ends the booking's checkout if a crash or an open challenge left it claimed, before its refund
 * (or its move) is worked out, as the request path ends it (decisions 0072, 0094): a charge made
 * for it is then refunded by the cancel, never taken later for a booking already cancelled.
 * A payment still waiting for the bank: with `stopWaiting` it is cancelled at the provider and
 * the checkout ends as the provider then says (released: nothing charged, its seats let go; or
 * paid, when the challenge passed just before); without, the change is refused. Answers the
 * checkout's id when the payment was stopped and its seats let go.
 */
export async function settleCheckoutOf(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  opts: { stopWaiting?: boolean } = {},
): Promise<number | null> {
  const row = await visible(ctx.db, caller, id);
  if (row.cancelledAt) return null;
  // Unpaid, perhaps in a balance the customer is paying on the bank's page: that payment first.
  if (!row.paid && row.userId !== null) {
    if (!opts.stopWaiting && (await openBalanceChallenges(ctx, row.userId)).length > 0)
      throw ValidationError.nonField(PAYMENT_WAITING_MESSAGE);
    if (opts.stopWaiting) await stopOpenBalanceChallenges(ctx, row.userId);
  }
  if (row.checkoutId === null) return null;
  const settled = await settleCheckout(ctx, row.checkoutId);
  if (!settled?.action) return null;
  if (!opts.stopWaiting) throw ValidationError.nonField(PAYMENT_WAITING_MESSAGE);
  await ctx.payments.cancelAuthentication(settled.action.intentRef);
  // Released so: its one mail says the cancel stopped it, not that the bank's check failed.
  const ended = await settleCheckout(ctx, row.checkoutId, { releasedBy: 'cancel' });
  if (ended?.action) throw new Error(`checkout ${row.checkoutId} still waits after its cancel`);
  const after = await repo.findReservation(ctx.db, id);
  return after?.cancelledAt ? row.checkoutId : null;
}

/**
 * The answer and trail of a cancel that stopped a waiting payment: nothing was charged, the
 * booking (and the other seats of its checkout) are let go. The release owes its one mail.
 */
export async function cancelledWhileWaiting(
  ctx: RefundContext,
  caller: AuthUser,
  id: number,
  checkoutId: number,
): Promise<CancelResponse> {
  const row = (await repo.findReservation(ctx.db, id))!;
  const all = await repo.checkoutReservationIds(ctx.db, checkoutId);
  const others = all.length > 1;
  await recordAudit(ctx.db, caller, {
    action: 'reservation.cancel',
    targetType: 'reservation',
    targetId: id,
    subjectUserId: row.userId,
    after: {
      payment: "stopped while waiting for the bank's check; nothing charged",
      ...(others ? { other_bookings: all.filter((x) => x !== id) } : {}),
    },
  });
  for (const other of all) {
    const seat = await repo.findReservation(ctx.db, other);
    if (seat) await seatFreed(ctx, seat.calendarId, seat.slot);
  }
  return {
    detail: others ? `${PAYMENT_STOPPED_MESSAGE} ${OTHER_SEATS_LET_GO}` : PAYMENT_STOPPED_MESSAGE,
    refund: null,
  };
}
