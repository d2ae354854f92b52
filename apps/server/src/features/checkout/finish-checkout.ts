import type { ProcessResponse } from '@paddock/contract/checkout';
import { DEFAULT_CURRENCY } from '@paddock/contract/money';
import type { CheckoutResult } from '../../db/schema/booking';
import { crashAt } from '../../lib/crash-point';
import { chargeSavedCard, type Queryable } from '../../plugins/payments/charge-card';
import { reservationsByIds } from '../reservations/reservations.service';
import * as repo from './checkout.repo';
import type { CheckoutContext } from './checkout.service';
import { finishPaid } from './process-statements';

// The one way a claimed checkout (`charging`: seats booked unpaid, nothing answered yet) ends:
// the request that claimed it, a retry, a cancel of one of its bookings and the money repair
// all call `chargeAndFinish` (decision 0072).

export type Finished = { result: CheckoutResult; finishedNow: boolean };

/** The paid checkout's answer, read while its bookings are being marked paid by it. */
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
 * and the finish stores the first answer only. Paid: the quick path's own finishing statement
 * (`finishPaid`) marks the bookings paid by the charge and owes the confirmation; declined: the
 * checkout fails and its bookings stay unpaid (the outstanding balance).
 */
export async function chargeAndFinish(
  ctx: Pick<CheckoutContext, 'db' | 'payments' | 'crashAt'>,
  checkout: repo.CheckoutRow,
): Promise<Finished> {
  const { db } = ctx;
  const location = await repo.findLocation(db, checkout.locationId);
  const outcome = await chargeSavedCard(db, ctx.payments, {
    userId: checkout.userId,
    amountCents: checkout.amounts.totalCents,
    currency: location?.currency ?? DEFAULT_CURRENCY,
    notes: `Booking #${checkout.id} (${checkout.items.length} × 30 min)`,
    idempotencyKey: `checkout-${checkout.id}`,
    kind: 'booking',
  });
  if (outcome.ok) crashAt(ctx.crashAt, 'charged');
  const id = checkout.id;
  let finished: Finished;
  if (outcome.ok) {
    const done = await finishPaid(db, id, {
      chargeId: outcome.charge.id,
      chargeRef: outcome.charge.chargeRef,
      result: await paidAnswer(db, checkout),
      confirmation: null,
    });
    // A concurrent finisher's answer, read again if it committed after the statement began.
    const stored = done.stored ?? (await repo.findCheckout(db, id))?.result;
    if (!stored) throw new Error(`checkout ${id} finished without an answer`);
    finished = { result: stored, finishedNow: done.finishedNow };
  } else {
    finished = await db.transaction(async (tx): Promise<Finished> => {
      const row = (await repo.lockCheckout(tx, id))!;
      if (row.result) return { result: row.result, finishedNow: false };
      const result: CheckoutResult = {
        statusCode: 402,
        body: { detail: outcome.message, code: 'payment_failed' },
      };
      await repo.updateCheckout(tx, id, { status: 'failed', result, processedAt: new Date() });
      return { result, finishedNow: true };
    });
  }
  crashAt(ctx.crashAt, 'finished');
  return finished;
}

/**
 * Ends the checkout if it is still claimed (the cancel of one of its bookings calls it first, so
 * the booking is paid, or known unpaid, before its refund is worked out). Answers whether it
 * finished it now; a confirmation it owes is sent by the caller's `receipts.wake()`.
 */
export async function settleCheckout(
  ctx: Pick<CheckoutContext, 'db' | 'payments' | 'crashAt'>,
  id: number,
): Promise<Finished | null> {
  const checkout = await repo.findCheckout(ctx.db, id);
  if (!checkout || checkout.status !== 'charging' || checkout.result) return null;
  return chargeAndFinish(ctx, checkout);
}
