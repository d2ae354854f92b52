import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { NO_TRANSACTIONS } from './transactions-modal';

const charge = (id: number, overrides: object = {}) => ({
  id,
  amount: '80.00',
  amount_cents: 8000,
  notes: 'Apex Club: 4 sessions per month (1000 credits), first month',
  errors: '',
  receipt_url: `/api/payments/local/receipts/ch_${id}`,
  created: '2026-05-14T17:05:00.000Z',
  charge_id: `ch_${id}`,
  method: 'card',
  ...overrides,
});

describe('recent-transactions modal', () => {
  it('lists charges with date, amount, notes, receipt, and the error of a failed one', async () => {
    const calls = stubApi({
      'GET /api/users/me/charges': {
        body: {
          count: 3,
          page_count: 1,
          page_size: 25,
          results: [
            charge(2, {
              amount_cents: 2500,
              notes: 'Gift voucher',
              errors: 'Your card was declined.',
              receipt_url: null,
              charge_id: null,
            }),
            charge(1),
            charge(3, {
              amount_cents: 5063,
              notes: 'Cash at the desk (1 booking)',
              receipt_url: null,
              charge_id: null,
              method: 'cash',
            }),
          ],
        },
      },
    });
    renderApp('/dashboard', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Recent Transactions' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Recent Transactions' }));
    const rows = await dialog.findAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveTextContent(/Date\s*Amount\s*Method\s*Notes\s*Receipt/);
    // How each was paid: the card, or the desk method staff recorded.
    expect(rows[2]).toHaveTextContent(/\$80\.00\s*Card\s*Apex Club/);
    expect(rows[3]).toHaveTextContent(/\$50\.63\s*Cash\s*Cash at the desk/);
    expect(rows[1]).toHaveTextContent('$25.00');
    expect(rows[1]).toHaveTextContent('Gift voucher');
    expect(rows[1]).toHaveTextContent('Failed: Your card was declined.');
    expect(rows[2]).toHaveTextContent('2026-05-14 10:05 AM');
    expect(rows[2]).toHaveTextContent('$80.00');
    expect(within(rows[2]!).getByRole('link', { name: /Receipt/ })).toHaveAttribute(
      'href',
      '/api/payments/local/receipts/ch_1',
    );
    const call = calls.find((c) => c.path === '/api/users/me/charges');
    expect(call?.search.get('amount_cents__gt')).toBe('0');
  });

  it('says so when there are none', async () => {
    stubApi({
      'GET /api/users/me/charges': {
        body: { count: 0, page_count: 1, page_size: 25, results: [] },
      },
    });
    renderApp('/dashboard', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Recent Transactions' }));
    expect(await screen.findByText(NO_TRANSACTIONS)).toBeVisible();
  });
});
