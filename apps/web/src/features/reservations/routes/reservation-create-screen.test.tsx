import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DateTime } from 'luxon';
import { stubApi, type StubAnswer, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import {
  availDay,
  DAY,
  location,
  page,
  quote,
  reservation,
  seat,
  ZONE,
} from '../../../test/booking-test-data';
import { remainingHint } from './reservation-create-screen';

const C1 = seat(1, 'Cockpit 1');
const TODAY = DateTime.now().setZone(ZONE).toISODate()!;
const TAKEN = { non_field_errors: ['The fields calendar, slot must make a unique set.'] };

type Handlers = Record<string, StubAnswer | ((r: StubRequest) => StubAnswer)>;

function stub(extra: Handlers = {}) {
  return stubApi({
    'GET /api/calendars/1': { body: C1 },
    'GET /api/locations': { body: page([location(1, 'Paddock Downtown')]) },
    'GET /api/calendars/1/avail': {
      body: availDay({ '14:00': 'free', '14:15': 'free', '14:30': 'taken', '15:00': 'free' }),
    },
    'GET /api/users/me/reservations/future': { body: page([]) },
    ...extra,
  });
}

describe('/reservations/:calendar', { timeout: 20_000 }, () => {
  it("opens on a waitlist offer's held time, not the nearest one", async () => {
    const calls = stub();
    renderApp(`/reservations/1?slot=${encodeURIComponent(`${DAY}T15:00`)}`, { user: testUser() });
    const times = await screen.findByRole('listbox', { name: 'Available Times' });
    await waitFor(() => expect(times).toHaveValue(`${DAY}T15:00`));
    expect(calls.some((c) => c.path.endsWith('/avail') && c.search.get('date') === DAY)).toBe(true);
  });

  it('lists the free :00/:30 times, chooses the nearest, shows its price and checks out', async () => {
    const calls = stub({
      'POST /api/reservations/checkouts/quote': { body: quote([{ calendar: C1, hhmm: '14:00' }]) },
      'GET /api/users/me/reservations/future': { body: page([reservation(5, C1, '14:00')]) },
      'GET /api/reservations/5/calendar.ics': { body: 'BEGIN:VCALENDAR' },
    });
    renderApp('/reservations/1', { user: testUser() });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Cockpit 1 Reservations' }),
    ).toBeVisible();
    const times = await screen.findByRole('listbox', { name: 'Available Times' });
    expect(times).toHaveAttribute('size', '5');
    await waitFor(() =>
      expect(
        within(times)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['2:00 PM', '3:00 PM']),
    );
    expect(times).toHaveValue(`${DAY}T14:00`);
    const club = screen.getByRole('combobox', { name: 'Club' });
    expect(within(club).getByRole('option', { name: 'Pay per race' })).toBeVisible();
    await userEvent.selectOptions(times, `${DAY}T15:00`);
    await userEvent.selectOptions(times, `${DAY}T14:00`);
    // Paying per race: the price first, then the checkout (issue 30); nothing booked yet.
    expect(screen.getByText(/^Price: \$25\.00 per 30 minutes/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Book It!' }));
    const checkout = await screen.findByRole('dialog', { name: 'Checkout' });
    expect(within(checkout).getByText('Cockpit 1')).toBeVisible();
    const asked = calls.find((c) => c.path === '/api/reservations/checkouts/quote')!;
    expect(asked.body).toEqual({ reservations: [{ calendar: 1, slot: `${DAY}T14:00` }] });
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/reservations')).toBe(false);
    const upcoming = await screen.findByRole('region', { name: 'Upcoming Reservations' });
    await waitFor(() => expect(within(upcoming).getByText('Pay per race')).toBeVisible());
    expect(
      within(upcoming).getByRole('link', { name: /^Add to Calendar\s+for Cockpit 1/ }),
    ).toHaveAttribute('download', 'reservation-5.ics');
    // The file comes from the server's calendar writer, with the session, and is saved as a Blob.
    const saved = vi.fn((_blob: Blob) => 'blob:calendar');
    // jsdom has no object URLs; this file's own module scope keeps the stand-in.
    Object.assign(URL, { createObjectURL: saved, revokeObjectURL: vi.fn() });
    await userEvent.click(
      within(upcoming).getByRole('link', { name: /^Add to Calendar\s+for Cockpit 1/ }),
    );
    await waitFor(() => expect(saved).toHaveBeenCalledOnce());
    const download = calls.find((c) => c.path === '/api/reservations/5/calendar.ics')!;
    expect(download.authorization).toMatch(/^Bearer /);
    expect(saved.mock.calls[0][0].type).toBe('text/calendar;charset=utf-8');
    expect(
      within(upcoming).getByRole('link', { name: /^Google Calendar\s+for Cockpit 1/ }),
    ).toHaveAttribute('href', expect.stringContaining('calendar.google.com'));
  });

  it('says so when the day has nothing free', async () => {
    stub({ 'GET /api/calendars/1/avail': { body: availDay({ '14:00': 'taken' }) } });
    renderApp('/reservations/1', { user: testUser() });
    expect(await screen.findByText(`No times available for ${TODAY}`)).toBeInTheDocument();
    expect(screen.getByText('No availability for the selected date')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Book It!' })).toBeNull();
  });

  it('shows the loading text first', async () => {
    stub({
      'GET /api/calendars/1/avail': () => new Promise<StubAnswer>(() => {}) as never,
    });
    renderApp('/reservations/1', { user: testUser() });
    expect(await screen.findByText('Loading available times...')).toBeInTheDocument();
  });

  it('maps a taken seat to "this timeslot is no longer available"', async () => {
    stub({ 'POST /api/reservations/checkouts/quote': { status: 400, body: TAKEN } });
    renderApp('/reservations/1', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Book It!' }));
    expect(await screen.findByText('Sorry, this timeslot is no longer available')).toBeVisible();
  });

  it("offers the member's subscriptions with what is left", async () => {
    const calls = stub({
      'GET /api/users/me/subscriptions': {
        body: page([
          {
            id: 3,
            name: 'Apex Club',
            reservations_remaining: 5,
            reservations_remaining_this_month: 2,
            reservations_remaining_next_month: 5,
          },
        ]),
      },
      'POST /api/reservations': { status: 201, body: reservation(5, C1, '14:00') },
    });
    renderApp('/reservations/1', {
      user: testUser({
        credits_subscription_exists: true,
        credits_subscription_in_good_standing: true,
      }),
    });
    const club = await screen.findByRole('combobox', { name: 'Club' });
    await waitFor(() => expect(club).toHaveDisplayValue('Apex Club'));
    expect(screen.getByText(/^[25] remaining (this|next) month$/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Book It!' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ subscription: 3 }),
    );
  });

  it('treats a missing subscriptions call as none', async () => {
    stub();
    renderApp('/reservations/1', {
      user: testUser({ credits_subscription_exists: true }),
    });
    const club = await screen.findByRole('combobox', { name: 'Club' });
    expect(
      within(club)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Pay per race']);
  });
});

describe('remainingHint', () => {
  const sub = {
    id: 1,
    name: 'Apex Club',
    reservations_remaining: 6,
    reservations_remaining_this_month: 2,
    reservations_remaining_next_month: 4,
    cancel_charge_back_cents: 0,
  };
  it('counts this month for a slot this month, next month otherwise', () => {
    expect(remainingHint(sub, '2026-11-30T14:00', '2026-11-21')).toBe('2 remaining this month');
    expect(remainingHint(sub, '2026-12-01T14:00', '2026-11-21')).toBe('4 remaining next month');
  });
});
