import { SLOT_MINUTES } from '@paddock/contract/calendars';
import { allocateCents, percentOfCents } from './money';

/**
 * The price of booking some seat-slots at one location (DESIGN §4, docs/decisions/0006):
 * subtotal = seats + booking fees; club credits first, then the voucher; sales tax is
 * round-half-up of the pre-tax amount; each slot's share of the total is what stays owed if
 * the card is declined. Pure: the caller supplies the seat prices and the location's settings.
 */
export type PricingInput = {
  /** One entry per 30-minute slot. */
  items: { costCents: number }[];
  bookingFeeCents: number;
  bookingFeesThreshold: number;
  salesTaxRatePercent: string;
  /** Club member in good standing: fees waived (and credits may pay). */
  clubMember: boolean;
  /** Value of the club credits put towards this booking (the club feature decides). */
  creditsUsing?: number;
  creditsValueCents?: number;
  /** Remaining balance of the voucher applied, or null without one. */
  voucherBalanceCents: number | null;
  /** The club's advertised discount on races, for "what the club would save". */
  clubDiscountPercent: number;
};

export type Pricing = {
  feesWaived: boolean;
  /** Each slot's seat, fee, share of the total and the sales tax inside that share. */
  lines: { costCents: number; feeCents: number; amountCents: number; taxCents: number }[];
  subtotalCents: number;
  discountCents: number;
  preTaxCents: number;
  salesTaxCents: number;
  totalCents: number;
  creditsUsing: number;
  creditsValueCents: number;
  creditsProgramSaves: number;
};

/** Fees go when one checkout books at least 30 × threshold minutes, or for club members. */
export function feesWaived(slotCount: number, threshold: number, clubMember: boolean): boolean {
  return clubMember || slotCount * SLOT_MINUTES >= SLOT_MINUTES * threshold;
}

export function priceBooking(input: PricingInput): Pricing {
  const waived = feesWaived(input.items.length, input.bookingFeesThreshold, input.clubMember);
  const fee = waived ? 0 : input.bookingFeeCents;
  const seatsCents = input.items.reduce((sum, item) => sum + item.costCents, 0);
  const feesCents = fee * input.items.length;
  const subtotalCents = seatsCents + feesCents;
  const creditsValueCents = Math.min(input.creditsValueCents ?? 0, subtotalCents);
  const discountCents =
    input.voucherBalanceCents === null
      ? 0
      : Math.max(0, Math.min(input.voucherBalanceCents, subtotalCents - creditsValueCents));
  const preTaxCents = subtotalCents - creditsValueCents - discountCents;
  const salesTaxCents = percentOfCents(preTaxCents, input.salesTaxRatePercent);
  const totalCents = preTaxCents + salesTaxCents;
  const shares = allocateCents(
    totalCents,
    input.items.map((item) => item.costCents + fee),
  );
  // The tax split the same way, so a booking's receipt can say what of its share was tax.
  const taxShares = allocateCents(
    salesTaxCents,
    input.items.map((item) => item.costCents + fee),
  );
  return {
    feesWaived: waived,
    lines: input.items.map((item, i) => ({
      costCents: item.costCents,
      feeCents: fee,
      amountCents: shares[i],
      taxCents: taxShares[i],
    })),
    subtotalCents,
    discountCents,
    preTaxCents,
    salesTaxCents,
    totalCents,
    creditsUsing: input.creditsUsing ?? 0,
    creditsValueCents,
    creditsProgramSaves: input.clubMember
      ? 0
      : percentOfCents(seatsCents, input.clubDiscountPercent) + feesCents,
  };
}
