import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { page, reservation, seat as calendar } from '../../../test/booking-test-data';

const quote = {
  reservation: 41,
  choice: 'policy',
  free_until: '2026-12-01T02:00:00.000Z',
  free: true,
  policy_text:
    'Free cancellation until 24 hours before your session. Later cancellations and no-shows are not refunded.',
  paid_cents: 2940,
  refund: {
    card_cents: 2940,
    tax_cents: 240,
    fee_cents: 200,
    credits: 0,
    credits_cents: 0,
    credits_wait: false,
    voucher_cents: 0,
    voucher_hint: null,
    total_cents: 2940,
    kept_cents: 0,
    lines: ['$29.40 back to your Visa ending 4242'],
  },
};

describe('cancelling from the dashboard', () => {
  it('shows exactly what comes back before anything is cancelled, then cancels', async () => {
    const seat = calendar(3, 'Cockpit 1');
    const calls = stubApi({
      'GET /api/users/me/reservations/future': { body: page([reservation(41, seat, '15:00')]) },
      'GET /api/reservations/41/cancel_quote': { body: quote },
      'POST /api/reservations/41/cancel': {
        body: {
          detail: 'Your reservation is cancelled.',
          refund: {
            id: 1,
            reservation: 41,
            choice: 'policy',
            reason: '',
            card_status: 'succeeded',
            last_error: '',
            refund: quote.refund,
            created: '2026-11-23T10:00:00.000Z',
          },
        },
      },
    });
    renderApp('/dashboard', { user: testUser() });
    expect(
      await screen.findByText(/Cancellation policy: Free cancellation until 24 hours/),
    ).toBeVisible();
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel Cockpit 1/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this reservation?' }));
    expect(await dialog.findByText('$29.40 back to your Visa ending 4242')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel Reservation' }));
    expect(await screen.findByText(/Your reservation is cancelled\./)).toBeVisible();
    expect(calls.filter((c) => c.path === '/api/reservations/41/cancel')).toHaveLength(1);
  });

  it('keeps the reservation when asked to', async () => {
    const seat = calendar(3, 'Cockpit 1');
    const calls = stubApi({
      'GET /api/users/me/reservations/future': { body: page([reservation(41, seat, '15:00')]) },
      'GET /api/reservations/41/cancel_quote': { body: quote },
    });
    renderApp('/dashboard', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel Cockpit 1/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel this reservation?' }));
    await dialog.findByText('$29.40 back to your Visa ending 4242');
    await userEvent.click(dialog.getByRole('button', { name: 'Keep Reservation' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
