import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { formatMoney } from '@paddock/contract/money-format';
import { TakingsByMethodTable } from './takings-by-method';

describe('TakingsByMethodTable', () => {
  it('shows card online apart from each desk method, one a row, with the total', () => {
    render(
      <TakingsByMethodTable
        takings={{
          card_cents: 10000,
          cash_cents: 2500,
          terminal_cents: 5063,
          bank_transfer_cents: 0,
          other_cents: -500,
          total_cents: 17063,
          voucher_cents: 2000,
          credits_cents: 750,
          fees_cents: 300,
          tax_cents: 1210,
        }}
        formatCents={(cents) => formatMoney(cents, 'USD')}
      />,
    );
    const table = screen.getByRole('table', { name: /Takings by method/ });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'MethodTaken',
      'Card online$100.00',
      'Cash$25.00',
      'Card terminal$50.63',
      'Bank transfer$0.00',
      'Other-$5.00',
      'Total$170.63',
      // Not money taken: outside the total (issue 41).
      'Paid with vouchers$20.00',
      'Paid with club credits$7.50',
      'Booking fees in paid checkouts$3.00',
      'Sales tax in paid checkouts$12.10',
    ]);
  });
});
