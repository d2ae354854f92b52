import { describe, expect, it } from 'vitest';
import { feesWaived, priceBooking, type PricingInput } from './pricing';

const base: PricingInput = {
  items: [{ costCents: 4500 }],
  bookingFeeCents: 150,
  bookingFeesThreshold: 4,
  salesTaxRatePercent: '0',
  clubMember: false,
  voucherBalanceCents: null,
  clubDiscountPercent: 20,
};
const slots = (n: number, costCents = 4500) => Array.from({ length: n }, () => ({ costCents }));

describe('booking fees', () => {
  it('charges the fee per slot below the threshold', () => {
    const p = priceBooking({ ...base, items: slots(3) });
    expect(p.feesWaived).toBe(false);
    expect(p.lines.map((l) => l.feeCents)).toEqual([150, 150, 150]);
    expect(p.subtotalCents).toBe(3 * 4500 + 3 * 150);
  });

  it('waives fees at exactly 30 × threshold minutes and above', () => {
    expect(priceBooking({ ...base, items: slots(4) }).subtotalCents).toBe(4 * 4500);
    expect(priceBooking({ ...base, items: slots(5) }).feesWaived).toBe(true);
    expect(feesWaived(3, 4, false)).toBe(false);
    expect(feesWaived(4, 4, false)).toBe(true);
    expect(feesWaived(1, 0, false)).toBe(true);
  });

  it('waives fees for club members', () => {
    const p = priceBooking({ ...base, clubMember: true });
    expect(p.feesWaived).toBe(true);
    expect(p.subtotalCents).toBe(4500);
    expect(p.creditsProgramSaves).toBe(0);
  });
});

describe('sales tax', () => {
  it('is round-half-up of the pre-tax amount, fees included', () => {
    // (4500 + 150) × 8.875% = 412.6875 → 413
    const p = priceBooking({ ...base, salesTaxRatePercent: '8.875' });
    expect(p.preTaxCents).toBe(4650);
    expect(p.salesTaxCents).toBe(413);
    expect(p.totalCents).toBe(5063);
  });

  it('rounds an exact half up', () => {
    // 1010 × 5% = 50.5 → 51
    const p = priceBooking({
      ...base,
      items: slots(1, 1010),
      bookingFeeCents: 0,
      salesTaxRatePercent: '5',
    });
    expect(p.salesTaxCents).toBe(51);
    // 1009 × 5% = 50.45 → 50
    expect(
      priceBooking({ ...base, items: slots(1, 1009), bookingFeeCents: 0, salesTaxRatePercent: '5' })
        .salesTaxCents,
    ).toBe(50);
  });

  it('taxes what is left after the voucher', () => {
    const p = priceBooking({ ...base, salesTaxRatePercent: '10', voucherBalanceCents: 650 });
    expect(p.discountCents).toBe(650);
    expect(p.preTaxCents).toBe(4000);
    expect(p.salesTaxCents).toBe(400);
    expect(p.totalCents).toBe(4400);
  });
});

describe('vouchers', () => {
  it('applies a partial balance fully', () => {
    const p = priceBooking({ ...base, voucherBalanceCents: 2000 });
    expect(p.discountCents).toBe(2000);
    expect(p.totalCents).toBe(4650 - 2000);
  });

  it('covers the exact subtotal and leaves nothing to charge', () => {
    const p = priceBooking({ ...base, salesTaxRatePercent: '8.875', voucherBalanceCents: 4650 });
    expect(p.discountCents).toBe(4650);
    expect(p.salesTaxCents).toBe(0);
    expect(p.totalCents).toBe(0);
    expect(p.lines.map((l) => l.amountCents)).toEqual([0]);
  });

  it('uses no more than the subtotal of a larger voucher', () => {
    const p = priceBooking({ ...base, voucherBalanceCents: 10_000 });
    expect(p.discountCents).toBe(4650);
    expect(p.totalCents).toBe(0);
  });

  it('takes credits before the voucher', () => {
    const p = priceBooking({
      ...base,
      creditsUsing: 250,
      creditsValueCents: 2500,
      voucherBalanceCents: 10_000,
    });
    expect(p.creditsValueCents).toBe(2500);
    expect(p.discountCents).toBe(2150);
    expect(p.totalCents).toBe(0);
  });
});

describe('line shares and club savings', () => {
  it('splits the total over the slots exactly', () => {
    const p = priceBooking({
      ...base,
      items: [{ costCents: 4500 }, { costCents: 3000 }, { costCents: 3000 }],
      salesTaxRatePercent: '8.875',
      voucherBalanceCents: 1000,
    });
    const sum = p.lines.reduce((s, l) => s + l.amountCents, 0);
    expect(sum).toBe(p.totalCents);
    expect(p.lines[0].amountCents).toBeGreaterThan(p.lines[1].amountCents);
  });

  it('shows what the club would save: its discount on seats plus the fees', () => {
    expect(priceBooking({ ...base, items: slots(2) }).creditsProgramSaves).toBe(1800 + 300);
    expect(priceBooking({ ...base, items: slots(4) }).creditsProgramSaves).toBe(3600);
  });
});
