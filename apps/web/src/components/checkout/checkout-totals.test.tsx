import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { QuoteResponse } from '@paddock/contract/checkout';
import { CheckoutTotals } from './checkout-totals';

const QUOTE: QuoteResponse = {
  checkout_id: 41,
  line_items: [
    {
      calendar_name: 'Cockpit 1',
      calendar_type_name: 'Pro Cockpit',
      calendar_cost_cents: 2500,
      calendar_qty: 1,
      calendar_total_cents: 2500,
      calendar_booking_fee_cents: 200,
      calendar_location: 1,
      time: '2099-03-10T14:00:00-07:00',
    },
    {
      calendar_name: 'Cockpit 2',
      calendar_type_name: 'Pro Cockpit',
      calendar_cost_cents: 2500,
      calendar_qty: 1,
      calendar_total_cents: 2500,
      calendar_booking_fee_cents: 200,
      calendar_location: 1,
      time: '2099-03-10T14:00:00-07:00',
    },
  ],
  subtotal_cents: 5400,
  discount_cents: 1000,
  pre_tax_cents: 4400,
  sales_tax_cents: 391,
  total_cents: 4791,
  booking_fees_threshold: 4,
  credits_using: 0,
  credits_value_cents: 0,
  credits_program_saves: 1400,
};

function row(name: string) {
  const term = screen.getByText(name, { selector: 'dt' });
  return within(term.parentElement as HTMLElement).getByRole('definition').textContent;
}

describe('CheckoutTotals', () => {
  it('shows each amount in dollars with two decimals, discounts negative', () => {
    render(<CheckoutTotals quote={QUOTE} taxRatePercent={8.875} />);
    expect(row('Simulators')).toBe('$50.00');
    expect(row('Booking Fees')).toBe('$4.00');
    expect(row('Subtotal')).toBe('$54.00');
    expect(row('Discount')).toBe('-$10.00');
    expect(row('Sales Tax (8.875%)')).toBe('$3.91');
    expect(row('Total')).toBe('$47.91');
    expect(screen.queryByText(/Credits/)).toBeNull();
  });

  it('shows club credits when a member pays with them', () => {
    render(
      <CheckoutTotals
        quote={{ ...QUOTE, credits_using: 250, credits_value_cents: 2500 }}
        clubName="Apex Club"
      />,
    );
    expect(row('Apex Club Credits (250)')).toBe('-$25.00');
    expect(row('Sales Tax')).toBe('$3.91');
  });

  it('has no Discount line when nothing is taken off', () => {
    render(<CheckoutTotals quote={{ ...QUOTE, discount_cents: 0 }} />);
    expect(screen.queryByText('Discount', { selector: 'dt' })).toBeNull();
    expect(screen.queryByText('-$0.00')).toBeNull();
    expect(row('Subtotal')).toBe('$54.00');
  });
});
