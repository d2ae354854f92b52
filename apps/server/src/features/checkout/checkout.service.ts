import {
  VOUCHER_REJECTED_MESSAGE,
  type QuoteRequest,
  type QuoteResponse,
} from '@paddock/contract/checkout';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { MIXED_CURRENCIES_MESSAGE, voucherCurrencyMessage } from '@paddock/contract/money';
import type { CheckoutItem, CheckoutResult } from '../../db/schema/booking';
import { priceBooking } from '../../lib/pricing';
import type { AuthUser } from '../../plugins/auth';
import {
  CREDITS_CHANGED,
  creditsTowards,
  isClubMemberInGoodStanding,
  redeemableCredits,
  redeemCredits,
} from '../../plugins/club-membership';
import { NotFound, ValidationError } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import {
  insertReservations,
  markReservationsPaid,
  resolveSeatSlots,
  roleOf,
} from '../reservations/reservations.service';
import { findUsableVoucher, redeemVoucher } from '../vouchers/vouchers.service';
import * as repo from './checkout.repo';
import { publishChange } from '../../plugins/changes';
import { findCard } from '../cards/cards.repo';
import { assertUnpaidLimit } from '../reservations/unpaid-limit';
import { policyFor } from '../refunds/refund-policy';
import { claimHeldSeats } from '../waitlist/waitlist.service';
import { processQuickly } from './process-quick';
import { chargeAndFinish, isClaimed, successResult, type Finished } from './finish-checkout';
import { crashAt } from '../../lib/crash-point';
import { oweConfirmation } from './receipts-owed';
import { itemField, resolveCheckoutItems } from './checkout-items';
import type { SeatLookup } from '../reservations/seat-cache';
import type { CheckoutContext } from './checkout-context';

export type { CheckoutContext };

/**
 * Prices seats at one location for the caller and records the quote. Holds nothing: the seats
 * stay free for anyone until the checkout is processed.
 */
export async function quoteCheckout(
  ctx: CheckoutContext,
  caller: AuthUser,
  body: { reservations: QuoteRequest['reservations']; voucher?: string | null },
  now = new Date(),
): Promise<QuoteResponse> {
  const { db } = ctx;
  const seen = new Set<string>();
  body.reservations.forEach((item, index) => {
    const key = `${item.calendar}|${item.slot}`;
    if (seen.has(key))
      throw ValidationError.field(
        itemField(index, 'slot'),
        'This seat and time is already in the checkout.',
      );
    seen.add(key);
  });
  const resolved = await resolveSeatSlots(db, body.reservations, roleOf(caller), now, itemField, {
    userId: caller.id,
  });
  const location = resolved[0].seat.location;
  if (resolved.some((r) => r.seat.location.currency !== location.currency))
    throw ValidationError.field('reservations', MIXED_CURRENCIES_MESSAGE);
  if (resolved.some((r) => r.seat.location.id !== location.id))
    throw ValidationError.field('reservations', 'Choose seats at one location per checkout.');
  const taken = await repo.takenPairs(
    db,
    resolved.map((r) => ({ calendarId: r.seat.id, slot: r.slot.slot })),
  );
  if (taken.size > 0) throw ValidationError.nonField(SLOT_TAKEN_MESSAGE);
  await claimHeldSeats(
    db,
    resolved.map((r) => ({ calendarId: r.seat.id, slot: r.slot.slot, userId: caller.id })),
    { claim: false },
    now,
  );

  const code = body.voucher?.trim() || null;
  const voucher = code ? await findUsableVoucher(db, code) : null;
  if (code && !voucher) throw ValidationError.field('voucher', VOUCHER_REJECTED_MESSAGE);
  if (voucher && voucher.currency !== location.currency)
    throw ValidationError.field(
      'voucher',
      voucherCurrencyMessage(voucher.currency, location.currency),
    );

  const settings = await getSettings(db);
  const clubMember = await isClubMemberInGoodStanding(db, caller.id);
  // Members pay the seats with credits first (docs/decisions/0007-club-credits.md).
  // Credits are worth the venue's default currency: they pay only seats priced in it (0039).
  const creditsApply = clubMember && location.currency === settings.default_currency;
  const credits = creditsTowards(
    creditsApply ? await redeemableCredits(db, caller.id) : 0,
    resolved.reduce((sum, r) => sum + r.seat.costCents, 0),
  );
  const pricing = priceBooking({
    items: resolved.map((r) => ({ costCents: r.seat.costCents })),
    bookingFeeCents: location.bookingFeeCents,
    bookingFeesThreshold: location.bookingFeesThreshold,
    salesTaxRatePercent: location.salesTaxRatePercent,
    clubMember,
    creditsUsing: credits.creditsUsing,
    creditsValueCents: credits.creditsValueCents,
    voucherBalanceCents: voucher?.balanceCents ?? null,
    clubDiscountPercent: settings.club_discount_percent,
  });
  const lineItems = resolved.map((r, i) => ({
    calendar_name: r.seat.name,
    calendar_type_name: r.seat.typeName,
    calendar_cost_cents: r.seat.costCents,
    calendar_qty: 1,
    calendar_total_cents: r.seat.costCents,
    calendar_booking_fee_cents: pricing.lines[i].feeCents,
    calendar_location: location.id,
    time: r.slot.time,
  }));
  const policy = await policyFor(db, location, caller.id);
  const quote = {
    line_items: lineItems,
    subtotal_cents: pricing.subtotalCents,
    discount_cents: pricing.discountCents,
    pre_tax_cents: pricing.preTaxCents,
    sales_tax_cents: pricing.salesTaxCents,
    total_cents: pricing.totalCents,
    booking_fees_threshold: location.bookingFeesThreshold,
    credits_using: pricing.creditsUsing,
    credits_value_cents: pricing.creditsValueCents,
    credits_program_saves: pricing.creditsProgramSaves,
    currency: location.currency,
    cancellation_policy: policy.text,
  };
  const items: CheckoutItem[] = resolved.map((r, i) => ({
    calendarId: r.seat.id,
    slot: r.slot.slot,
    time: r.slot.time,
    costCents: r.seat.costCents,
    bookingFeeCents: pricing.lines[i].feeCents,
    amountCents: pricing.lines[i].amountCents,
  }));
  const row = await repo.insertCheckout(db, {
    userId: caller.id,
    locationId: location.id,
    items,
    amounts: {
      subtotalCents: pricing.subtotalCents,
      discountCents: pricing.discountCents,
      preTaxCents: pricing.preTaxCents,
      salesTaxCents: pricing.salesTaxCents,
      totalCents: pricing.totalCents,
      creditsUsing: pricing.creditsUsing,
      creditsValueCents: pricing.creditsValueCents,
    },
    quote,
    voucherCode: voucher?.code ?? null,
  });
  return { checkout_id: row.id, ...quote };
}

type Step = Finished | { charge: repo.CheckoutRow; claimedNow: boolean };

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
 * Books the quoted seats and pays for them (docs/decisions/0006-checkout.md):
 * 1. one transaction creates the reservations (the unique index decides races; a taken seat
 *    rolls everything back) and redeems the voucher, then commits with status `charging`;
 * 2. the saved card is charged with the idempotency key `checkout-{id}`;
 * 3. a second transaction marks the reservations paid (or the checkout failed, leaving them
 *    unpaid: an outstanding balance) and stores the answer.
 * Any later call, concurrent or a retry, gets the stored answer; a call that finds the
 * checkout still `charging` (a crash, a racing double click) repeats step 2 with the same key,
 * which the payment layer answers without charging again.
 */
export async function processCheckout(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  now = new Date(),
  seats?: SeatLookup,
): Promise<CheckoutResult> {
  const { db } = ctx;
  const quick = seats ? await processQuickly(ctx, caller, id, now, seats) : null;
  if (quick) {
    if (quick.finishedNow && quick.result.statusCode === 200) ctx.receipts.wake();
    return quick.result;
  }
  await assertCheckoutUnpaidLimit(ctx, caller, id, now);
  const step: Step = await db.transaction(async (tx) => {
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

  if ('charge' in step && step.claimedNow) crashAt(ctx.crashAt, 'claimed');
  const final = 'charge' in step ? await chargeAndFinish(ctx, step.charge) : step;
  if (!('result' in final)) throw new Error('checkout step did not finish');
  // The confirmation was recorded as owed with the payment; it is sent after this answer.
  if (final.finishedNow && final.result.statusCode === 200) ctx.receipts.wake();
  return final.result;
}
