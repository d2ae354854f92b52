import type { ProcessResponse } from '@paddock/contract/checkout';
import { DEFAULT_CURRENCY } from '@paddock/contract/money';
import type { CheckoutResult, CheckoutStatus } from '../../db/schema/booking';
import { crashAt } from '../../lib/crash-point';
import {
  chargeSavedCard,
  type ChargeOutcome,
  type Queryable,
} from '../../plugins/payments/charge-card';
import type { Db } from '../../db/client';
import { and, eq, isNull } from 'drizzle-orm';
import { checkouts } from '../../db/schema/booking';
import type { NextAction } from '../../plugins/payments/provider';
import { releaseCheckout } from './release-checkout';
import { reservationsByIds } from '../reservations/reservations.service';
import * as repo from './checkout.repo';
import type { CheckoutContext } from './checkout-context';
import { finishPaid } from './finish-paid';
import { oweRefund } from './refund-owed';
import { oweBookingConfirmation } from './receipts-owed';
import { checkoutBooking } from './send-confirmation';

// The one way a claimed checkout (`charging`: seats booked unpaid, nothing answered yet) ends:
// the request that claimed it, a retry, the web's return from a challenge, the webhook, a cancel
// of one of its bookings and the money repair all call `chargeAndFinish` (decisions 0072, 0094).

export type Finished = {
  result: CheckoutResult;
  finishedNow: boolean;
  /** Waiting for the customer's challenge (the answer is not stored). */
  action?: NextAction;
};
export type FinishContext = Pick<CheckoutContext, 'db' | 'payments' | 'crashAt' | 'publicUrl'>;

/** Where a checkout's 3-D Secure challenge brings the customer back: the web asks to finish. */
export const checkoutReturnUrl = (publicUrl: string, id: number) =>
  `${publicUrl}/checkouts/${id}/authenticated`;

/** The paid answer, read just before the finishing statement marks the bookings paid. */
async function paidAnswer(db: Queryable, checkout: repo.CheckoutRow): Promise<CheckoutResult> {
  const result = await successResult(db, checkout);
  const body = result.body as ProcessResponse;
  return {
    ...result,
    body: { ...body, reservations: body.reservations.map((r) => ({ ...r, paid: true })) },
  };
}

export async function successResult(
  db: Queryable,
  checkout: repo.CheckoutRow,
): Promise<CheckoutResult> {
  const ids = await repo.checkoutReservationIds(db, checkout.id);
  const location = await repo.findLocation(db, checkout.locationId);
  const body: ProcessResponse = {
    checkout_id: checkout.id,
    status: 'paid',
    total_cents: checkout.amounts.totalCents,
    currency: location?.currency ?? DEFAULT_CURRENCY,
    reservations: await reservationsByIds(db, ids),
    post_booking_url: location?.postBookingUrl ?? '',
  };
  return { statusCode: 200, body };
}

/**
 * Charges a claimed checkout with the key `checkout-{id}` and stores how it ended, exactly once
 * whoever calls it and however often: the key makes the payment layer answer an earlier charge
 * (ours, or one the provider made before a crash lost its answer) instead of charging again,
 * and the finish stores the first answer only. Paid: `finishPaid` marks the bookings paid by the
 * charge and owes the confirmation; declined: the checkout fails and its bookings stay unpaid
 * (the outstanding balance); a bank asking for 3-D Secure: the checkout awaits authentication.
 */
export async function chargeAndFinish(
  ctx: FinishContext,
  checkout: repo.CheckoutRow,
  /**
   * The caller claimed it in this request just now: no charge can exist under its key yet, so
   * neither our records nor the provider are asked for one first.
   */
  opts: { claimedNow?: boolean; releasedBy?: 'cancel' } = {},
): Promise<Finished> {
  const { db } = ctx;
  const location = await repo.findLocation(db, checkout.locationId);
  const outcome = await chargeSavedCard(
    db,
    ctx.payments,
    {
      userId: checkout.userId,
      amountCents: checkout.amounts.totalCents,
      currency: location?.currency ?? DEFAULT_CURRENCY,
      notes: `Booking #${checkout.id} (${checkout.items.length} × 30 min)`,
      idempotencyKey: `checkout-${checkout.id}`,
      kind: 'booking',
    },
    // Otherwise this is a retry, a return, the webhook, a cancel or the repair, perhaps long
    // after a charge whose answer was lost: the provider is asked for it first (0084).
    // The customer pressed "pay": every attempt of this key is on-session (decision 0085).
    {
      ...(opts.claimedNow ? { fresh: true } : { lookUpSince: checkout.createdAt }),
      onSession: { returnUrl: checkoutReturnUrl(ctx.publicUrl, checkout.id) },
    },
  );
  if (outcome.charge === null) return awaitAuthentication(db, checkout, outcome.action);
  if (outcome.ok) crashAt(ctx.crashAt, 'charged');
  const finished = await finish(db, checkout, outcome, opts.releasedBy);
  crashAt(ctx.crashAt, 'finished');
  return finished;
}

async function finish(
  db: Db,
  checkout: repo.CheckoutRow,
  outcome: ChargeOutcome,
  releasedBy?: 'cancel',
): Promise<Finished> {
  const id = checkout.id;
  if (outcome.ok) {
    const answer = await paidAnswer(db, checkout);
    // Every seat it paid for was cancelled while the bank checked: the money goes back.
    if ((answer.body as ProcessResponse).reservations.length === 0)
      return oweRefund(db, checkout, outcome.charge.chargeRef);
    const done = await finishPaid(db, id, {
      chargeId: outcome.charge.id,
      chargeRef: outcome.charge.chargeRef,
      result: answer,
    });
    // A concurrent finisher's answer, read again if it committed after the statement began.
    const stored = done.stored ?? (await repo.findCheckout(db, id))?.result;
    if (!stored) throw new Error(`checkout ${id} finished without an answer`);
    return { result: stored, finishedNow: done.finishedNow };
  }
  return db.transaction(async (tx): Promise<Finished> => {
    const row = (await repo.lockCheckout(tx, id))!;
    if (row.result) return { result: row.result, finishedNow: false };
    // A challenge failed or abandoned: nothing charged, the seats go back (decision 0085).
    if (row.status === 'awaiting_authentication')
      return {
        result: await releaseCheckout(tx, row, outcome.message, releasedBy ? 'cancel' : 'failed'),
        finishedNow: true,
      };
    const result: CheckoutResult = {
      statusCode: 402,
      body: { detail: outcome.message, code: 'payment_failed' },
    };
    await repo.updateCheckout(tx, id, { status: 'failed', result, processedAt: new Date() });
    // The seats stay booked, unpaid: the customer is told once, by whichever finisher stored the
    // decline (the request, a retry, the webhook or the money repair), after its commit (issue 41).
    await oweBookingConfirmation(
      tx,
      await checkoutBooking(tx, row, { outcome: 'declined', message: outcome.message }),
    );
    return { result, finishedNow: true };
  });
}

/**
 * Ends the checkout if it is still claimed (the cancel of one of its bookings calls it first, so
 * the booking is paid, or known unpaid, before its refund is worked out). Answers whether it
 * finished it now; a confirmation it owes is sent by the caller's `receipts.wake()`.
 */
export async function settleCheckout(
  ctx: FinishContext,
  id: number,
  opts: { releasedBy?: 'cancel' } = {},
): Promise<Finished | null> {
  const checkout = await repo.findCheckout(ctx.db, id);
  if (!checkout || !isClaimed(checkout.status) || checkout.result) return null;
  return chargeAndFinish(ctx, checkout, opts);
}

/** Seats booked unpaid, the charge perhaps made or waiting for the customer's challenge. */
export const isClaimed = (status: CheckoutStatus) =>
  status === 'charging' || status === 'awaiting_authentication';

/**
 * The bank asks the customer to authenticate: the checkout waits (its seats booked unpaid, for
 * AUTHENTICATION_HOLD_MS at most) and answers what the web needs to run the challenge. Nothing
 * is stored as its answer: the challenge's end decides it, whoever asks first (the web's
 * return, the webhook, a retry, the repair).
 */
async function awaitAuthentication(
  db: Db,
  checkout: repo.CheckoutRow,
  action: NextAction,
): Promise<Finished> {
  await db
    .update(checkouts)
    .set({ status: 'awaiting_authentication' })
    .where(
      and(
        eq(checkouts.id, checkout.id),
        eq(checkouts.status, 'charging'),
        isNull(checkouts.result),
      ),
    );
  const location = await repo.findLocation(db, checkout.locationId);
  const body: ProcessResponse = {
    checkout_id: checkout.id,
    status: 'awaiting_authentication',
    total_cents: checkout.amounts.totalCents,
    currency: location?.currency ?? DEFAULT_CURRENCY,
    reservations: await reservationsByIds(db, await repo.checkoutReservationIds(db, checkout.id)),
    post_booking_url: location?.postBookingUrl ?? '',
    client_secret: action.clientSecret,
    challenge_url: action.challengeUrl,
  };
  return { result: { statusCode: 200, body }, finishedNow: false, action };
}

/**
 * A checkout whose challenge nobody answered within its hold (the money repair): the payment is
 * cancelled at the provider, so a late answer cannot take the money, and the checkout ends as
 * the provider then says: released, or paid when the challenge passed just before.
 */
export async function expireAuthentication(ctx: FinishContext, id: number) {
  const settled = await settleCheckout(ctx, id);
  if (!settled?.action) return settled;
  await ctx.payments.cancelAuthentication(settled.action.intentRef);
  return settleCheckout(ctx, id);
}
