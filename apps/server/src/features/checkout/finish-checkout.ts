import type { ProcessResponse } from '@paddock/contract/checkout';
import { DEFAULT_CURRENCY } from '@paddock/contract/money';
import type { CheckoutResult } from '../../db/schema/booking';
import { crashAt } from '../../lib/crash-point';
import { chargeSavedCard, type Queryable } from '../../plugins/payments/charge-card';
import { markReservationsPaid, reservationsByIds } from '../reservations/reservations.service';
import * as repo from './checkout.repo';
import type { CheckoutContext } from './checkout.service';
import { oweConfirmation } from './receipts-owed';

// The one way a claimed checkout (`charging`: seats booked unpaid, nothing answered yet) ends:
// the request that claimed it, a retry, a cancel of one of its bookings and the money repair
// all call `chargeAndFinish` (decision 0072).

export type Finished = { result: CheckoutResult; finishedNow: boolean };

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
 * and the finish under the row lock stores the first answer only. Paid: the bookings are marked
 * paid by the charge and the confirmation is owed; declined: the checkout fails and its
 * bookings stay unpaid (the outstanding balance).
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
  const finished = await db.transaction(async (tx): Promise<Finished> => {
    const row = (await repo.lockCheckout(tx, id))!;
    if (row.result) return { result: row.result, finishedNow: false };
    if (outcome.ok) {
      await markReservationsPaid(tx, await repo.checkoutReservationIds(tx, id), outcome.charge.id);
      const result = await successResult(tx, row);
      await repo.updateCheckout(tx, id, {
        status: 'paid',
        result,
        chargeRef: outcome.charge.chargeRef,
        processedAt: new Date(),
      });
      await oweConfirmation(tx, id);
      return { result, finishedNow: true };
    }
    const result: CheckoutResult = {
      statusCode: 402,
      body: { detail: outcome.message, code: 'payment_failed' },
    };
    await repo.updateCheckout(tx, id, { status: 'failed', result, processedAt: new Date() });
    return { result, finishedNow: true };
  });
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
