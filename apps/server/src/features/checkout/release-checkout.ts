import { PAYMENT_STOPPED_MESSAGE } from '@paddock/contract/refunds';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CheckoutResult } from '../../db/schema/booking';
import { reservations, voucherRedemptions, vouchers } from '../../db/schema/booking';
import { addCredits } from '../../plugins/club-membership';
import type { Queryable } from '../../plugins/payments/charge-card';
import { publishChange } from '../../plugins/changes';
import * as repo from './checkout.repo';
import { oweBookingConfirmation } from './receipts-owed';
import { checkoutBooking } from './send-confirmation';

/** A released checkout's answer: the bank's words, then what happened to the seats and money. */
export function releasedDetail(message: string): string {
  const note = /nothing was charged/i.test(message)
    ? 'The seats were not kept.'
    : 'Nothing was charged, and the seats were not kept.';
  return `${message} ${note}`.trim();
}

/**
 * Ends a checkout whose challenge failed or was abandoned, inside the caller's transaction with
 * the checkout row locked: nothing was charged, so its seats are free again (its bookings are
 * cancelled, not left as an outstanding balance) and the voucher and club credits it used come
 * back. Stored as `released` with the one message the customer reads, wherever they look.
 */
export async function releaseCheckout(
  tx: Queryable,
  checkout: repo.CheckoutRow,
  message: string,
  /** `cancel`: a cancel of one of its bookings stopped the payment (decision 0114). */
  why: 'failed' | 'cancel' = 'failed',
): Promise<CheckoutResult> {
  const cancelled = await tx
    .update(reservations)
    .set({ cancelledAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(reservations.checkoutId, checkout.id),
        eq(reservations.paid, false),
        isNull(reservations.cancelledAt),
      ),
    )
    .returning({ calendarId: reservations.calendarId });
  for (const calendarId of new Set(cancelled.map((r) => r.calendarId)))
    await publishChange(tx, 'reservations', calendarId);
  const given = await tx
    .delete(voucherRedemptions)
    .where(eq(voucherRedemptions.checkoutId, checkout.id))
    .returning();
  for (const redemption of given)
    await tx
      .update(vouchers)
      .set({ balanceCents: sql`${vouchers.balanceCents} + ${redemption.amountCents}` })
      .where(eq(vouchers.id, redemption.voucherId));
  if (checkout.amounts.creditsUsing > 0)
    await addCredits(tx, {
      userId: checkout.userId,
      credits: checkout.amounts.creditsUsing,
      reason: 'refund',
      checkoutId: checkout.id,
    });
  const result: CheckoutResult = {
    statusCode: 402,
    body: {
      detail: why === 'cancel' ? PAYMENT_STOPPED_MESSAGE : releasedDetail(message),
      code: 'authentication_failed',
    },
  };
  // The customer may have left the page: a mail says the same, after the commit (issue 41).
  await oweBookingConfirmation(
    tx,
    await checkoutBooking(tx, checkout, {
      outcome: why === 'cancel' ? 'cancelled' : 'released',
      message,
    }),
  );
  await repo.updateCheckout(tx, checkout.id, {
    status: 'released',
    result,
    processedAt: new Date(),
  });
  return result;
}
