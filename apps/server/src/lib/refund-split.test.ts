import { describe, expect, it } from 'vitest';
import {
  capCard,
  partOf,
  refundOf,
  shareLess,
  shareOfCheckout,
  shareValueCents,
  type PaidCheckout,
} from './refund-split';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('shareOfCheckout', () => {
  const paid: PaidCheckout = {
    items: [
      { costCents: 4500, bookingFeeCents: 150 },
      { costCents: 4500, bookingFeeCents: 150 },
      { costCents: 2500, bookingFeeCents: 150 },
    ],
    cardCents: 8769, // pre-tax 8055 + 714 tax at 8.875 %
    salesTaxCents: 714,
    creditsUsing: 0,
    creditsValueCents: 0,
    voucherCents: 3395,
  };

  it('splits card, tax, voucher and fees in the proportions the seats were priced', () => {
    const s = shareOfCheckout(paid, 0);
    expect(s.feeCents).toBe(150);
    // 4650 of 11950 of each means.
    expect(s.cardCents).toBe(Math.round((8769 * 4650) / 11950));
    expect(s.voucherCents).toBe(Math.round((3395 * 4650) / 11950));
    expect(s.taxCents).toBeLessThanOrEqual(s.cardCents);
  });

  it('never makes or loses a cent across every seat of the checkout', () => {
    const shares = paid.items.map((_, i) => shareOfCheckout(paid, i));
    expect(sum(shares.map((s) => s.cardCents))).toBe(paid.cardCents);
    expect(sum(shares.map((s) => s.taxCents))).toBe(paid.salesTaxCents);
    expect(sum(shares.map((s) => s.voucherCents))).toBe(paid.voucherCents);
  });

  it('keeps exact totals for awkward amounts, a cent at a time, with credits', () => {
    for (let cents = 1; cents < 400; cents += 7) {
      const odd: PaidCheckout = {
        items: [1, 2, 3, 5, 7].map((n) => ({ costCents: n * 333, bookingFeeCents: 0 })),
        cardCents: cents,
        salesTaxCents: Math.floor(cents / 9),
        creditsUsing: cents * 3 + 1,
        creditsValueCents: cents * 30 + 10,
        voucherCents: cents * 2 + 1,
      };
      const shares = odd.items.map((_, i) => shareOfCheckout(odd, i));
      expect(sum(shares.map((s) => s.cardCents))).toBe(odd.cardCents);
      expect(sum(shares.map((s) => s.taxCents))).toBe(odd.salesTaxCents);
      expect(sum(shares.map((s) => s.credits))).toBe(odd.creditsUsing);
      expect(sum(shares.map((s) => s.creditsCents))).toBe(odd.creditsValueCents);
      expect(sum(shares.map((s) => s.voucherCents))).toBe(odd.voucherCents);
      for (const s of shares) expect(s.taxCents).toBeLessThanOrEqual(s.cardCents);
    }
  });
});

describe('refundOf', () => {
  const share = {
    cardCents: 2923,
    taxCents: 238,
    feeCents: 150,
    credits: 125,
    creditsCents: 1250,
    voucherCents: 1131,
  };

  it('gives everything back in the free window', () => {
    const r = refundOf(share, 0);
    expect(r).toMatchObject({ cardCents: 2923, taxCents: 238, credits: 125, voucherCents: 1131 });
    expect(r.keptCents).toBe(0);
    expect(r.totalCents).toBe(shareValueCents(share));
  });

  it('gives nothing back when the whole share is kept', () => {
    const r = refundOf(share, 100);
    expect(r).toMatchObject({
      cardCents: 0,
      taxCents: 0,
      credits: 0,
      voucherCents: 0,
      totalCents: 0,
    });
    expect(r.keptCents).toBe(shareValueCents(share));
  });

  it('keeps a share of each means: refund + kept = paid, exactly, for every percentage', () => {
    for (let keep = 0; keep <= 100; keep += 1) {
      const r = refundOf(share, keep);
      expect(r.totalCents + r.keptCents).toBe(shareValueCents(share));
      expect(r.cardCents).toBeLessThanOrEqual(share.cardCents);
      expect(r.taxCents).toBeLessThanOrEqual(r.cardCents);
      expect(r.credits).toBeLessThanOrEqual(share.credits);
    }
    // 50 %: half of each, the venue's half rounded half up.
    expect(refundOf(share, 50)).toMatchObject({ cardCents: 1461, voucherCents: 565, credits: 62 });
  });

  it('refuses a percentage that is not one', () => {
    expect(() => refundOf(share, 101)).toThrow(RangeError);
    expect(() => refundOf(share, 12.5)).toThrow(RangeError);
  });
});

describe('capCard', () => {
  it('never sends back more than is left on the charge', () => {
    const r = refundOf(
      { cardCents: 1000, taxCents: 80, feeCents: 0, credits: 0, creditsCents: 0, voucherCents: 0 },
      0,
    );
    const capped = capCard(r, 600);
    expect(capped).toMatchObject({ cardCents: 600, totalCents: 600, keptCents: 400 });
    expect(capCard(r, -5).cardCents).toBe(0);
  });
});

describe('partOf (a move to a cheaper seat gives the difference back as it was paid)', () => {
  const share = {
    cardCents: 3267,
    taxCents: 267,
    feeCents: 150,
    credits: 50,
    creditsCents: 500,
    voucherCents: 1000,
  };

  it('splits the difference over card, credits and voucher in proportion, whole credits', () => {
    const back = partOf(share, 1000);
    expect(back.cardCents + back.creditsCents + back.voucherCents).toBe(back.totalCents);
    // 1000 × 3267 / 4767 = 685.3; credits 104.9 → 105 cents → 10 whole credits (100 cents);
    // voucher 209.8 → 210. The 5 cents the credits cannot carry stay with the booking.
    expect(back.cardCents).toBe(685);
    expect(back.credits).toBe(10);
    expect(back.creditsCents).toBe(100);
    expect(back.voucherCents).toBe(210);
    expect(back.taxCents).toBe(Math.round((267 * 685) / 3267));
    expect(back.totalCents).toBe(995);
    expect(back.keptCents).toBe(0);
  });

  it('never gives back more than the share, and what is left adds up', () => {
    const all = partOf(share, 999_999);
    expect(all.totalCents).toBe(shareValueCents(share));
    const first = partOf(share, 1234);
    const left = shareLess(share, first);
    expect(shareValueCents(left) + first.totalCents).toBe(shareValueCents(share));
    expect(left.taxCents + first.taxCents).toBe(share.taxCents);
    expect(partOf(share, 0).totalCents).toBe(0);
    expect(partOf({ ...share, cardCents: 0, taxCents: 0 }, 100).taxCents).toBe(0);
  });
});
