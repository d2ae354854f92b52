import { VOUCHER_REJECTED_MESSAGE } from '@paddock/contract/checkout';
import type { AuthUser } from '../../plugins/auth';
import { CREDITS_CHANGED, redeemCredits } from '../../plugins/club-membership';
import { NotFound, ValidationError } from '../../plugins/errors';
import { publishChange } from '../../plugins/changes';
import { insertReservations, markReservationsPaid } from '../reservations/reservations.service';
import { assertUnpaidLimit } from '../reservations/unpaid-limit';
import { findUsableVoucher, redeemVoucher } from '../vouchers/vouchers.service';
import { findCard } from '../cards/cards.repo';
import * as repo from './checkout.repo';
import type { CheckoutContext } from './checkout-context';
import { resolveCheckoutItems } from './checkout-items';
import { isClaimed, successResult, type Finished } from './finish-checkout';
import { oweConfirmation } from './receipts-owed';

/** What the claim left: an answer (stored before, or a free checkout paid now), or a charge. */
export type Claim = Finished | { charge: repo.CheckoutRow; claimedNow: boolean };

/**
 * A checkout that cannot be charged (no saved card) leaves its bookings unpaid: it counts
 * against the customer's unpaid-bookings limit. One with a card is paid at once, or fails and
 * leaves the balance, which the next booking then counts.
 */
async function assertCheckoutUnpaidLimit(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  now: Date,
) {
  const checkout = await repo.findCheckout(ctx.db, id);
  if (!checkout || checkout.userId !== caller.id || checkout.result) return;
  if (isClaimed(checkout.status)) return;
  const owes = checkout.amounts.totalCents > 0;
  const card = owes ? await findCard(ctx.db, caller.id, ctx.payments.kind) : null;
  const adding = owes && !card ? checkout.items.length : 0;
  await assertUnpaidLimit(ctx.db, caller, caller.id, adding, now);
}

/**
 * Holds a quoted checkout's seats: `quoted → charging` in one transaction under the checkout's
 * row lock, which books its seats unpaid (the unique index decides races; a seat taken, no
 * longer active or held for someone else on the waitlist rolls everything back: the checkout
 * stays quoted, 400) and redeems its voucher and club credits. A checkout with nothing left to
 * pay is paid there and then. A checkout claimed or finished before is answered as it is: a
 * concurrent call waits for the lock, then sees it.
 */
export async function claimCheckout(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  now: Date,
): Promise<Claim> {
  await assertCheckoutUnpaidLimit(ctx, caller, id, now);
  return ctx.db.transaction(async (tx): Promise<Claim> => {
    const checkout = await repo.lockCheckout(tx, id);
    // Someone else's checkout does not exist for the caller.
    if (!checkout || checkout.userId !== caller.id) throw new NotFound();
    if (checkout.result) return { result: checkout.result, finishedNow: false };
    if (isClaimed(checkout.status)) return { charge: checkout, claimedNow: false };

    const resolved = await resolveCheckoutItems(tx, caller, checkout, now);
    const ids = await insertReservations(
      tx,
      checkout.items.map((item, i) => ({
        calendarId: item.calendarId,
        slot: item.slot,
        time: new Date(resolved[i].slot.startMs),
        userId: checkout.userId,
        paid: false,
        amountCents: item.amountCents,
        bookingFeeCents: item.bookingFeeCents,
        createdById: caller.id,
        checkoutId: checkout.id,
      })),
    );
    for (const calendarId of new Set(checkout.items.map((item) => item.calendarId)))
      await publishChange(tx, 'reservations', calendarId);
    const discount = checkout.amounts.discountCents;
    if (checkout.voucherCode && discount > 0) {
      const voucher = await findUsableVoucher(tx, checkout.voucherCode);
      const redeemed =
        voucher &&
        (await redeemVoucher(tx, { voucherId: voucher.id, amountCents: discount, checkoutId: id }));
      if (!redeemed) throw ValidationError.field('voucher', VOUCHER_REJECTED_MESSAGE);
    }
    if (checkout.amounts.creditsUsing > 0) {
      const spent = await redeemCredits(tx, {
        userId: checkout.userId,
        credits: checkout.amounts.creditsUsing,
        reason: 'checkout',
        checkoutId: checkout.id,
      });
      if (!spent) throw ValidationError.nonField(CREDITS_CHANGED);
    }
    if (checkout.amounts.totalCents === 0) {
      await markReservationsPaid(tx, ids);
      const result = await successResult(tx, checkout);
      await repo.updateCheckout(tx, id, { status: 'paid', result, processedAt: now });
      await oweConfirmation(tx, id);
      return { result, finishedNow: true };
    }
    await repo.updateCheckout(tx, id, { status: 'charging' });
    return { charge: checkout, claimedNow: true };
  });
}
