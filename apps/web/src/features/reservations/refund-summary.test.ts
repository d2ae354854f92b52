import { describe, expect, it } from 'vitest';
import type { RefundBreakdown } from '@paddock/contract/refunds';
import { refundSummary } from './refund-summary';

function breakdown(overrides: Partial<RefundBreakdown>): RefundBreakdown {
  return {
    card_cents: 0,
    tax_cents: 0,
    fee_cents: 0,
    credits: 0,
    credits_cents: 0,
    credits_wait: false,
    voucher_cents: 0,
    voucher_hint: null,
    total_cents: 0,
    kept_cents: 0,
    lines: [],
    ...overrides,
  };
}

const half = breakdown({
  card_cents: 2940,
  total_cents: 2940,
  credits: 250,
  lines: ['$29.40 back to your Visa ending 4242', '250 credits back to your credits balance'],
});

describe('refundSummary', () => {
  it("keeps one half-hour's lines, as sentences", () => {
    expect(refundSummary([half], 'USD')).toEqual([
      '$29.40 back to your Visa ending 4242.',
      '250 credits back to your credits balance.',
    ]);
  });

  it('says each way once with the sum, not once per half-hour', () => {
    const kept = breakdown({
      kept_cents: 500,
      lines: ['$5.00 is kept under the cancellation policy'],
    });
    expect(refundSummary([half, half, kept], 'USD')).toEqual([
      '$58.80 back to your Visa ending 4242.',
      '500 credits back to your credits balance.',
      '$5.00 is kept under the cancellation policy.',
    ]);
  });

  it('says "nothing comes back" once', () => {
    const nothing = breakdown({
      lines: ['Nothing was paid for this booking, so nothing comes back.'],
    });
    expect(refundSummary([nothing, nothing], 'USD')).toEqual([
      'Nothing was paid for this booking, so nothing comes back.',
    ]);
  });
});
