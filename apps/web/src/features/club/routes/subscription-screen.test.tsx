import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NO_CARD_FOR_CLUB_MESSAGE } from '@paddock/contract/club';
import { stubApi, type StubRequest } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { clubWelcomeMessage } from './subscription-screen';

const CARD = { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034, postal_code: '94107' };

function quote(request: StubRequest) {
  const credits = Number(request.search.get('credits'));
  const quoted = credits * 10;
  const total = quoted - Math.round(quoted * 0.2);
  return {
    body: {
      quoted_cents: quoted,
      discount_percent: 20,
      total_cents: total,
      first_charge_cents: total,
    },
  };
}

const subscription = {
  id: 3,
  name: 'Apex Club',
  status: 'active',
  good_standing: true,
  cancelable: true,
  credits_per_month: 1500,
  price_cents: 12000,
  discount_percent: 20,
  cycle_day_of_month: 14,
  next_charge_on: '2026-06-14',
  started_at: '2026-05-14T17:00:00.000Z',
  cycles_paid: 1,
  credits_balance: 1500,
  reservations_remaining: 6,
  reservations_remaining_this_month: 6,
  reservations_remaining_next_month: 12,
};

describe('/subscription', () => {
  it('pre-fills sessions from the query and quotes sessions × 250 credits', async () => {
    const calls = stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: CARD },
    });
    renderApp('/subscription?sessions=6', { user: testUser() });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Join the Apex Club' }),
    ).toBeVisible();
    expect(screen.getByRole('spinbutton', { name: 'Sessions per month' })).toHaveValue(6);
    expect(screen.getByText('Minimum of 4 sessions per month required to join')).toBeVisible();
    expect(screen.getByText('1500 credits per month')).toBeVisible();
    expect(await screen.findByText('$150.00')).toBeVisible();
    expect(screen.getByText('Club discount (20%)')).toBeVisible();
    expect(screen.getByText('−$30.00')).toBeVisible();
    expect(screen.getByText('$120.00')).toBeVisible();
    const quotes = calls.filter((c) => c.path.endsWith('credits_purchase_quote'));
    expect(quotes.map((c) => c.search.get('credits'))).toEqual(['1500']);
    expect(screen.getByText(/Save 20% on every race/)).toBeVisible();
    expect(screen.getByText(/Booking fees are waived/)).toBeVisible();
    expect(screen.getByText(/minimum of two billing cycles/)).toBeVisible();
  });

  it('asks for one quote after the spinner settles (300 ms debounce)', async () => {
    const calls = stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: CARD },
    });
    renderApp('/subscription', { user: testUser() });
    const more = await screen.findByRole('button', { name: 'More sessions' });
    await screen.findByText('$80.00');
    // Three quick steps (synchronous events, well inside 300 ms) make one new quote.
    fireEvent.click(more);
    fireEvent.click(more);
    fireEvent.click(more);
    expect(await screen.findByText('$140.00')).toBeVisible();
    const quotes = calls.filter((c) => c.path.endsWith('credits_purchase_quote'));
    expect(quotes.map((c) => c.search.get('credits'))).toEqual(['1000', '1750']);
  });

  it('starts at 1 session with a first-race price', async () => {
    stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: CARD },
    });
    renderApp('/subscription?sessions=0', {
      user: testUser(),
      config: { club_first_race_cents: 1500 },
    });
    expect(await screen.findByRole('spinbutton', { name: 'Sessions per month' })).toHaveValue(1);
    expect(screen.getByText('Minimum of 1 sessions per month required to join')).toBeVisible();
  });

  it('shows the card form first when no card is saved', async () => {
    stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: {} },
    });
    renderApp('/subscription', { user: testUser() });
    expect(await screen.findByText(NO_CARD_FOR_CLUB_MESSAGE)).toBeVisible();
    expect(screen.getByLabelText('Card Number')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Join the Apex Club' })).toBeNull();
  });

  it('joins, marks the user a member, welcomes them for 15 s and goes to the dashboard', async () => {
    const calls = stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/7/charges/credits_enroll': {
        body: { detail: 'Welcome to the Apex Club!', credits_balance: 1500, subscription },
      },
    });
    const { router, client } = renderApp('/subscription?sessions=6', { user: testUser() });
    const join = await screen.findByRole('button', { name: 'Join the Apex Club' });
    await waitFor(() => expect(join).toBeEnabled());
    await userEvent.click(join);
    expect(await screen.findByText(clubWelcomeMessage('Apex Club', 1500))).toBeVisible();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.find((c) => c.path.endsWith('credits_enroll'))?.body).toEqual({
      credits_amount: 1500,
    });
    const user = client.getQueryData<ReturnType<typeof testUser>>(['users', 7]);
    expect(user).toMatchObject({
      credits_subscription_exists: true,
      credits_subscription_in_good_standing: true,
      credits_balance: 1500,
      credits_recurring: 1500,
    });
  });

  it('shows a refused enrolment as a danger alert', async () => {
    stubApi({
      'GET /api/users/me/charges/credits_purchase_quote': quote,
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/7/charges/credits_enroll': {
        status: 400,
        body: { non_field_errors: ['Your card was declined.'] },
      },
    });
    renderApp('/subscription', { user: testUser() });
    const join = await screen.findByRole('button', { name: 'Join the Apex Club' });
    await waitFor(() => expect(join).toBeEnabled());
    await userEvent.click(join);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
  });

  it('sends members and everyone with the club off to the dashboard', async () => {
    const member = renderApp('/subscription', {
      user: testUser({
        credits_subscription_exists: true,
        credits_subscription_in_good_standing: true,
      }),
    });
    await waitFor(() => expect(member.router.state.location.pathname).toBe('/dashboard'));
    member.unmount();
    const off = renderApp('/subscription', { user: testUser(), config: { club_enabled: false } });
    await waitFor(() => expect(off.router.state.location.pathname).toBe('/dashboard'));
  });
});
