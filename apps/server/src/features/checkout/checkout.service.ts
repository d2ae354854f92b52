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
  creditsTowards,
  isClubMemberInGoodStanding,
  redeemableCredits,
} from '../../plugins/club-membership';
import { ValidationError } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import { resolveSeatSlots, roleOf } from '../reservations/reservations.service';
import { findUsableVoucher } from '../vouchers/vouchers.service';
import * as repo from './checkout.repo';
import { policyFor } from '../refunds/refund-policy';
import { claimHeldSeats } from '../waitlist/waitlist.service';
import { chargeAndFinish } from './finish-checkout';
import { crashAt } from '../../lib/crash-point';
import { itemField } from './checkout-items';
import { claimCheckout } from './claim-checkout';
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

/**
 * Books the quoted seats and pays for them: the checkout's one path (docs/decisions/0094):
 * 1. `claimCheckout` holds the seats (one transaction; the checkout becomes `charging`);
 * 2. `chargeAndFinish` charges the saved card with the key `checkout-{id}` and stores how it
 *    ended (`paid`, `failed`), or leaves it `awaiting_authentication` for the bank's challenge.
 * Any later call, concurrent or a retry, gets the stored answer; a call that finds the checkout
 * still claimed (a crash, a racing double click, the return from a challenge) repeats step 2
 * with the same key, which the payment layer answers without charging again.
 */
export async function processCheckout(
  ctx: CheckoutContext,
  caller: AuthUser,
  id: number,
  now = new Date(),
): Promise<CheckoutResult> {
  const claim = await claimCheckout(ctx, caller, id, now);
  if ('charge' in claim && claim.claimedNow) crashAt(ctx.crashAt, 'claimed');
  const final =
    'charge' in claim
      ? await chargeAndFinish(ctx, claim.charge, { claimedNow: claim.claimedNow })
      : claim;
  // The confirmation (paid), the decline's mail (seats kept unpaid) or the release's (3-D Secure
  // failed) was recorded as owed with the checkout's end; it is sent after this answer.
  if (final.finishedNow) ctx.receipts.wake();
  return final.result;
}
