import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { page } from '../../../test/booking-test-data';

const entry = (id: number, over: object = {}) => ({
  id,
  location: 1,
  location_name: 'Paddock Downtown',
  slot: '2026-12-06T14:00',
  time: '2026-12-06T22:00:00.000Z',
  status: 'waiting',
  position: 2,
  hold_until: null,
  calendar: null,
  calendar_name: null,
  ...over,
});

describe('the waitlist on the dashboard', () => {
  it('lists the entries with their place in line or their held seat, and leaves one', async () => {
    let entries = [
      entry(7),
      entry(8, {
        slot: '2026-12-07T18:00',
        status: 'offered',
        position: null,
        hold_until: '2026-12-07T01:10:00.000Z',
        calendar: 3,
        calendar_name: 'Cockpit 1',
      }),
    ];
    const calls = stubApi({
      'GET /api/users/me/reservations/future': { body: page([]) },
      'GET /api/waitlist': () => ({ body: entries }),
      'DELETE /api/waitlist/7': () => {
        entries = entries.filter((e) => e.id !== 7);
        return { status: 204 };
      },
    });
    renderApp('/dashboard', { user: testUser() });
    const card = within((await screen.findByRole('heading', { name: 'Waitlist' })).parentElement!);
    expect(card.getByText(/Number 2 in line\./)).toBeVisible();
    expect(card.getByText(/Cockpit 1 is held for you until/)).toBeVisible();
    // The held seat on the held day and time, not the seat's today (decision 0089).
    expect(card.getByRole('link', { name: 'Book it now' })).toHaveAttribute(
      'href',
      '/reservations/3?slot=2026-12-07T18%3A00',
    );
    await userEvent.click(
      card.getByRole('button', {
        name: 'Leave the waitlist for Sunday, December 6, 2026 at 2:00 PM',
      }),
    );
    expect(await screen.findByText('You left the waitlist.')).toBeVisible();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/waitlist/7')).toBe(true);
    await screen.findByText(/Cockpit 1 is held for you until/);
    expect(screen.queryByText(/Number 2 in line\./)).toBeNull();
  });

  it('is not shown when the customer waits for nothing', async () => {
    stubApi({
      'GET /api/users/me/reservations/future': { body: page([]) },
      'GET /api/waitlist': { body: [] },
    });
    renderApp('/dashboard', { user: testUser() });
    expect(await screen.findByText(/You have no upcoming reservations/)).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Waitlist' })).toBeNull();
  });
});
