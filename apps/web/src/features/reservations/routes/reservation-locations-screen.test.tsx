import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi, type StubAnswer, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import {
  availDay,
  DAY,
  location,
  page,
  parallel,
  quote,
  reservation,
  seat,
  TYPES,
} from '../../../test/booking-test-data';
import { DateTime } from 'luxon';

const DOWNTOWN = location(1, 'Paddock Downtown');
const BRIGHTON = location(2, 'Paddock Brighton', { timezone: 'Europe/London' });
const C1 = seat(1, 'Cockpit 1');
const C2 = seat(2, 'Cockpit 2');
const B1 = seat(3, 'Brighton 1', 2);
const dayName = DateTime.fromISO(DAY).toFormat('cccc, LLLL d, yyyy');
const TAKEN = { non_field_errors: ['The fields calendar, slot must make a unique set.'] };

type Handlers = Record<string, StubAnswer | ((r: StubRequest) => StubAnswer)>;

function stubVenue(extra: Handlers = {}) {
  return stubApi({
    'GET /api/locations': { body: page([DOWNTOWN, BRIGHTON]) },
    'GET /api/locations/nearest': { body: DOWNTOWN },
    'GET /api/caltypes': { body: page(TYPES) },
    'GET /api/calendars': (r) => ({
      body: page(r.search.get('location') === '2' ? [B1] : [C1, C2]),
    }),
    'GET /api/calendars/parallel': (r) => ({
      body: r.search.get('racers') === '3' ? [] : parallel([C1, C2], ['14:00', '14:30']),
    }),
    'GET /api/calendars/1/avail': {
      body: availDay({ '14:00': 'free', '14:30': 'free', '15:00': 'taken' }),
    },
    'GET /api/calendars/2/avail': {
      body: availDay({ '14:00': 'free', '14:30': 'mine_unpaid', '15:00': 'mine_paid' }),
    },
    'GET /api/calendars/3/avail': { body: availDay({ '14:00': 'free' }) },
    'GET /api/users/7/card': { body: {} },
    ...extra,
  });
}

const cell = (seatName: string, time: string, state: string) =>
  screen.findByRole('button', { name: `${seatName}, ${dayName}, ${time}: ${state}` });

async function openCheckout() {
  await userEvent.click(await cell('Cockpit 1', '2:00 PM', 'Free'));
  await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
  return screen.findByRole('dialog', { name: 'Checkout' });
}

// Whole screens on a busy machine: allow more than the default 5 s.
describe('/reservations/all', { timeout: 20_000 }, () => {
  it('offers Notify me only where the waitlist would take it: every seat type shown', async () => {
    stubVenue();
    renderApp('/reservations/all', { user: testUser() });
    const notify = { name: 'Tell me when a seat frees up at 3:00 PM' };
    // A busy machine renders the deferred grid late: wait for it rather than fail.
    expect(await screen.findByRole('button', notify, { timeout: 15_000 })).toBeVisible();
    // Cockpits only: a VR seat may still be free at 3:00 PM, which the waitlist counts.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pro Cockpit' }));
    await cell('Cockpit 1', '3:00 PM', 'Taken');
    expect(screen.queryByRole('button', notify)).toBeNull();
  });

  it('searches the nearest location and says whether the group fits, word for word', async () => {
    const calls = stubVenue();
    renderApp('/reservations/all', { user: testUser() });
    expect(await screen.findByText('Excellent! We have 2 simulators available...')).toBeVisible();
    expect(screen.getByLabelText('Location')).toHaveValue('1');
    const search = calls.find((c) => c.path === '/api/calendars/parallel')!.search;
    expect(Object.fromEntries(search)).toMatchObject({
      block: '30',
      location: '1',
      sessions: '1',
      racers: '1',
    });

    await userEvent.selectOptions(screen.getByLabelText('Race Minutes'), '90');
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === '/api/calendars/parallel' && c.search.get('sessions') === '3'),
      ).toBe(true),
    );
    expect(screen.getByLabelText('Race Minutes')).toHaveDisplayValue('90');
    expect(
      within(screen.getByLabelText('Race Minutes'))
        .getAllByRole('option')
        .map((o) => Number((o as HTMLOptionElement).value) % 30),
    ).toEqual(Array(8).fill(0));
  });

  it("says when the group does not fit: 'Sorry! We don't have N simulators…'", async () => {
    stubVenue({
      'GET /api/calendars': { body: page([C1, C2, seat(4, 'Cockpit 4')]) },
      'GET /api/calendars/4/avail': { body: availDay({ '14:30': 'free' }) },
    });
    renderApp('/reservations/all', { user: testUser() });
    await cell('Cockpit 4', '2:00 PM', 'Closed');
    await userEvent.selectOptions(screen.getByLabelText('Racers'), '3');
    expect(
      await screen.findByText("Sorry! We don't have 3 simulators available for 30 minutes..."),
    ).toBeVisible();
  });

  it('takes the location from the query and rewrites it when another is chosen', async () => {
    const calls = stubVenue();
    const { router } = renderApp('/reservations/all?location=2', { user: testUser() });
    expect(await cell('Brighton 1', '2:00 PM', 'Free')).toBeVisible();
    expect(calls.some((c) => c.path === '/api/locations/nearest')).toBe(false);
    await userEvent.selectOptions(screen.getByLabelText('Location'), '1');
    await waitFor(() => expect(router.state.location.search).toBe('?location=1'));
    expect(await cell('Cockpit 2', '2:30 PM', 'You, Pending')).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(await cell('Cockpit 2', '3:00 PM', 'You, Confirmed')).toBeVisible();
  });

  it('shows the club alert a second after load, and never when the club is off', async () => {
    stubVenue();
    const first = renderApp('/reservations/all', { user: testUser() });
    expect(screen.queryByText(/save 20% on every race/)).toBeNull();
    expect(
      await screen.findByText(/save 20% on every race/, {}, { timeout: 3000 }),
    ).toHaveTextContent('Apex Club');
    first.unmount();

    stubVenue();
    renderApp('/reservations/all', { user: testUser(), config: { club_enabled: false } });
    await screen.findByText('Excellent! We have 2 simulators available...');
    await new Promise((r) => setTimeout(r, 1300));
    expect(screen.queryByText(/save 20% on every race/)).toBeNull();
  });

  it('selects seats side by side from a start time', async () => {
    const calls = stubVenue({
      'POST /api/reservations/checkouts/quote': {
        body: quote([
          { calendar: C1, hhmm: '14:00' },
          { calendar: C2, hhmm: '14:00' },
        ]),
      },
    });
    renderApp('/reservations/all', { user: testUser() });
    await cell('Cockpit 2', '2:00 PM', 'Free');
    await userEvent.selectOptions(screen.getByLabelText('Racers'), '2');
    await userEvent.click(await screen.findByRole('button', { name: /^Start at 2:00 PM/ }));
    expect(await cell('Cockpit 1', '2:00 PM', 'Selected')).toHaveAttribute('aria-pressed', 'true');
    expect(await cell('Cockpit 2', '2:00 PM', 'Selected')).toBeVisible();
    expect(screen.getByText('2 slots selected')).toBeVisible();
    expect(screen.getByText(/Press Checkout to review and reserve/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    await screen.findByRole('dialog', { name: 'Checkout' });
    // The toast would cover the checkout's title: it goes when the checkout opens.
    expect(screen.queryByText(/Press Checkout to review and reserve/)).toBeNull();
    const body = calls.find((c) => c.path === '/api/reservations/checkouts/quote')!.body;
    expect(body).toEqual({
      reservations: [
        { calendar: 1, slot: `${DAY}T14:00` },
        { calendar: 2, slot: `${DAY}T14:00` },
      ],
    });
  });

  it('prices the checkout, refuses a bad code, saves a card and books: All Done', async () => {
    let card: object = {};
    const calls = stubVenue({
      'GET /api/users/7/card': () => ({ body: card }),
      'POST /api/reservations/checkouts/quote': (r) =>
        (r.body as { voucher?: string }).voucher
          ? {
              status: 400,
              body: {
                voucher: ['The discount code you entered was not found or has already been used'],
              },
            }
          : { body: quote([{ calendar: C1, hhmm: '14:00' }]) },
      'POST /api/payments/local/tokens': { body: { id: 'tok_1' } },
      'POST /api/users/7/card': () => {
        card = { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034, postal_code: '' };
        return { body: card };
      },
      'POST /api/reservations/checkouts/100/process': {
        body: {
          checkout_id: 100,
          status: 'paid',
          total_cents: 2940,
          reservations: [reservation(9, C1, '14:00')],
          post_booking_url: '',
        },
      },
    });
    renderApp('/reservations/all', { user: testUser() });
    const dialog = await openCheckout();
    expect(within(dialog).getByText('Cockpit 1')).toBeVisible();
    expect(within(dialog).getByText('Total').nextSibling).toHaveTextContent('$29.40');
    expect(await within(dialog).findByText('Your card will not be charged yet')).toBeVisible();
    const reserve = within(dialog).getByRole('button', { name: 'Reserve' });
    expect(reserve).toBeDisabled();
    expect(within(dialog).getByText(/members would save/)).toHaveTextContent('$12.00');

    await userEvent.type(within(dialog).getByLabelText('Discount Code'), 'nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(
      await screen.findByText(
        'The discount code you entered was not found or has already been used',
      ),
    ).toBeVisible();
    expect(within(dialog).getByLabelText('Discount Code')).toHaveValue('');
    expect(
      calls.filter((c) => c.path.endsWith('/quote')).map((c) => c.body as object),
    ).toContainEqual(expect.objectContaining({ voucher: 'NOPE' }));

    await userEvent.type(within(dialog).getByLabelText('Card Number'), '4242424242424242');
    await userEvent.type(within(dialog).getByLabelText('Expiry Month (MM)'), '12');
    await userEvent.type(within(dialog).getByLabelText('Expiry Year (YY)'), '34');
    await userEvent.type(within(dialog).getByLabelText('CVC'), '123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Card' }));
    expect(await within(dialog).findByText('Paying with Visa ending in 4242.')).toBeVisible();
    await waitFor(() => expect(reserve).toBeEnabled());
    await userEvent.click(reserve);

    const done = await screen.findByRole('dialog', { name: 'All Done' });
    expect(within(done).getByRole('button', { name: 'Log Out' })).toBeVisible();
    expect(within(done).getByRole('button', { name: 'Book Another' })).toBeVisible();
    expect(calls.filter((c) => c.path.endsWith('/process'))).toHaveLength(1);
  });

  it('ends a declined card in the Booking Error modal with the server message', async () => {
    stubVenue({
      'GET /api/users/7/card': {
        body: { brand: 'Visa', last4: '0341', exp_month: 1, exp_year: 2030, postal_code: '' },
      },
      'POST /api/reservations/checkouts/quote': {
        body: quote([{ calendar: C1, hhmm: '14:00' }]),
      },
      'POST /api/reservations/checkouts/100/process': {
        status: 402,
        body: { detail: 'Your card was declined.', code: 'payment_failed' },
      },
    });
    const { router } = renderApp('/reservations/all', { user: testUser() });
    const dialog = await openCheckout();
    expect(await within(dialog).findByText('Paying with Visa ending in 0341.')).toBeVisible();
    expect(within(dialog).queryByText('Your card will not be charged yet')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reserve' }));
    const error = await screen.findByRole('dialog', { name: 'Booking Error' });
    expect(error).toHaveTextContent(
      'Your reservation could not be completed, there were issues processing your card. Your card was declined.',
    );
    expect(within(error).getByRole('button', { name: 'Go Back' })).toBeVisible();
    await userEvent.click(within(error).getByRole('button', { name: 'Review Payment Method' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('says a simulator is no longer available when a seat went first', async () => {
    stubVenue({
      'POST /api/reservations/checkouts/quote': { status: 400, body: TAKEN },
    });
    renderApp('/reservations/all', { user: testUser() });
    await userEvent.click(await cell('Cockpit 1', '2:00 PM', 'Free'));
    await userEvent.click(screen.getByRole('button', { name: 'Checkout' }));
    expect(
      await screen.findByText('Sorry, one of the simulators you selected is no longer available'),
    ).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Checkout' })).toBeNull();
  });
});
