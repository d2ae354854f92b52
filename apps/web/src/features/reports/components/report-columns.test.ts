import { describe, expect, it } from 'vitest';
import { revenueColumns } from './report-columns';

describe('revenueColumns', () => {
  it('has no "Refunds at Stripe" column when the venue does not use Stripe (issue 41)', () => {
    const show = (cents: number) => String(cents);
    expect(revenueColumns(false, show, true).map((c) => c.header)).toContain('Refunds at Stripe');
    expect(revenueColumns(false, show, false).map((c) => c.header)).toEqual([
      'Date',
      'Bookings',
      'Club',
      'Vouchers',
      'Fees',
      'Total',
    ]);
  });
});
