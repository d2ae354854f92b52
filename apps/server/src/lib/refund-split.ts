import { allocateCents, percentOfCents, shareDown } from './money';

/**
 * What a cancelled seat-slot gives back, in the proportions it was paid
 * (docs/decisions/0027-cancellations-and-refunds.md). Pure: whole cents and whole credits only,
 * through `money.ts`, the one module that rounds.
 */

/** One checkout as it was paid: the items in checkout order and the totals of each means. */
export type PaidCheckout = {
  items: { costCents: number; bookingFeeCents: number }[];
  /** Charged to the card, tax included (0 when the card was not charged). */
  cardCents: number;
  salesTaxCents: number;
  creditsUsing: number;
  creditsValueCents: number;
  voucherCents: number;
};

/** What one seat-slot was paid with. */
export type PaidShare = {
  cardCents: number;
  /** Part of `cardCents`. */
  taxCents: number;
  /** The booking fee inside this share (informational: it was paid by the means above). */
  feeCents: number;
  credits: number;
  creditsCents: number;
  voucherCents: number;
};

export const emptyShare: PaidShare = {
  cardCents: 0,
  taxCents: 0,
  feeCents: 0,
  credits: 0,
  creditsCents: 0,
  voucherCents: 0,
};

/**
 * Item `index`'s share of each means of payment. Every means is split across all items by the
 * same weights (seat price + fee, as the checkout priced them) with largest-remainder rounding,
 * so the shares of all items add up to each total exactly: cancelling every seat one by one
 * returns exactly what was paid, the last seat taking whatever cents are left.
 */
export function shareOfCheckout(paid: PaidCheckout, index: number): PaidShare {
  const weights = paid.items.map((i) => i.costCents + i.bookingFeeCents);
  const card = allocateCents(paid.cardCents, weights);
  // Tax split by each item's card share, so an item's tax never exceeds its card share.
  const tax = allocateCents(Math.min(paid.salesTaxCents, paid.cardCents), card);
  return {
    cardCents: card[index],
    taxCents: tax[index],
    feeCents: paid.items[index].bookingFeeCents,
    credits: allocateCents(paid.creditsUsing, weights)[index],
    creditsCents: allocateCents(paid.creditsValueCents, weights)[index],
    voucherCents: allocateCents(paid.voucherCents, weights)[index],
  };
}

/** The money value of a share (card + credits' value + voucher), fees and tax included. */
export const shareValueCents = (s: PaidShare) => s.cardCents + s.creditsCents + s.voucherCents;

export type RefundSplit = PaidShare & {
  /** Money value of what goes back: card + credits' value + voucher. */
  totalCents: number;
  /** What the venue keeps (late cancellation share), in the same money value. */
  keptCents: number;
};

/**
 * Gives back all but `keepPercent` of each means of payment. Each means keeps its own
 * round-half-up share, so refund + kept = paid for every means and no cent is made or lost;
 * tax and fees go back in the same proportion (never more than the card part they are in).
 */
export function refundOf(share: PaidShare, keepPercent: number): RefundSplit {
  if (!Number.isInteger(keepPercent) || keepPercent < 0 || keepPercent > 100)
    throw new RangeError(`Not a percentage to keep: ${keepPercent}`);
  const back = (paid: number) => paid - percentOfCents(paid, keepPercent);
  const cardCents = back(share.cardCents);
  const creditsCents = back(share.creditsCents);
  const voucherCents = back(share.voucherCents);
  const totalCents = cardCents + creditsCents + voucherCents;
  return {
    cardCents,
    taxCents: Math.min(back(share.taxCents), cardCents),
    feeCents: back(share.feeCents),
    credits: back(share.credits),
    creditsCents,
    voucherCents,
    totalCents,
    keptCents: shareValueCents(share) - totalCents,
  };
}

/**
 * Never more back to the card than is left on the charge (what was charged less what earlier
 * refunds of it gave back): a safety net under the split, whatever happened before.
 */
export function capCard(split: RefundSplit, leftOnChargeCents: number): RefundSplit {
  const cardCents = Math.max(0, Math.min(split.cardCents, leftOnChargeCents));
  const cut = split.cardCents - cardCents;
  return {
    ...split,
    cardCents,
    taxCents: Math.min(split.taxCents, cardCents),
    totalCents: split.totalCents - cut,
    keptCents: split.keptCents + cut,
  };
}

/**
 * `cents` of a share given back in the proportions it was paid (a move to a cheaper seat): each
 * means gives its largest-remainder part, credits in whole credits worth no more than their
 * part, tax and fees in proportion. Never more than `cents`, nor than the share.
 */
export function partOf(share: PaidShare, cents: number): RefundSplit {
  // `part` of `whole` applied to `total`, largest remainder; nothing of nothing.
  const portion = (total: number, part: number, whole: number) =>
    whole > 0 ? allocateCents(total, [part, whole - part])[0] : 0;
  const value = shareValueCents(share);
  const take = Math.max(0, Math.min(cents, value));
  if (take === 0) return { ...refundOf(share, 100), keptCents: 0 };
  const [cardCents, creditsPart, voucherCents] = allocateCents(take, [
    share.cardCents,
    share.creditsCents,
    share.voucherCents,
  ]);
  // Whole credits worth no more than their part: the odd cents stay with the booking (a later
  // cancel gives them back with the rest).
  const credits = shareDown(share.credits, creditsPart, share.creditsCents);
  const creditsCents = shareDown(share.creditsCents, credits, share.credits);
  const totalCents = cardCents + creditsCents + voucherCents;
  return {
    cardCents,
    taxCents: portion(share.taxCents, cardCents, share.cardCents),
    feeCents: portion(share.feeCents, totalCents, value),
    credits,
    creditsCents,
    voucherCents,
    totalCents,
    keptCents: 0,
  };
}

/** A share less what earlier partial refunds (moves to cheaper seats) already gave back. */
export function shareLess(share: PaidShare, back: PaidShare): PaidShare {
  const less = (a: number, b: number) => Math.max(0, a - b);
  return {
    cardCents: less(share.cardCents, back.cardCents),
    taxCents: less(share.taxCents, back.taxCents),
    feeCents: less(share.feeCents, back.feeCents),
    credits: less(share.credits, back.credits),
    creditsCents: less(share.creditsCents, back.creditsCents),
    voucherCents: less(share.voucherCents, back.voucherCents),
  };
}
