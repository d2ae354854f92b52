import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { CANCEL_CHARGE_BACK, NOT_CANCELABLE } from './cancel-subscription-modal';
import { REVIEW_PAYMENT_METHOD } from './club-panel';

const MEMBER = testUser({
  credits_subscription_exists: true,
  credits_subscription_in_good_standing: true,
  credits_subscription_cancelable: true,
  credits_balance: 1250,
  credits_recurring: 1000,
  credits_recurring_cents: 8000,
  credits_cycle_day_of_month: 3,
  subscription_id: '5',
});

const clubPanel = async () => screen.findByRole('region', { name: /Apex Club/ });

describe('dashboard club panel', () => {
  it('shows a member the badge, credits balance and monthly plan', async () => {
    renderApp('/dashboard', { user: MEMBER });
    const panel = within(await clubPanel());
    expect(panel.getByText('Member')).toBeVisible();
    expect(panel.getByText(/1250 credits/)).toBeVisible();
    expect(panel.getByText(/worth \$125\.00/)).toBeVisible();
    expect(panel.getByText(/1000 credits \(4 sessions\)\s*for \$80\.00 per month/)).toBeVisible();
    expect(panel.getByText('On the 3rd of each month')).toBeVisible();
    expect(panel.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
    expect(panel.queryByText(REVIEW_PAYMENT_METHOD)).toBeNull();
  });

  it('asks a member not in good standing to review the payment method', async () => {
    renderApp('/dashboard', {
      user: testUser({
        ...MEMBER,
        credits_subscription_in_good_standing: false,
      }),
    });
    const panel = within(await clubPanel());
    expect(panel.getByText(REVIEW_PAYMENT_METHOD)).toHaveClass('alert-danger');
    expect(panel.queryByText('Member')).toBeNull();
    expect(panel.queryByText(/Monthly plan/)).toBeNull();
  });

  it('promotes the club to everyone else', async () => {
    renderApp('/dashboard', { user: testUser() });
    const panel = within(await clubPanel());
    expect(panel.getByText('Save 20% on every race')).toBeVisible();
    expect(panel.getByRole('link', { name: 'Join the Apex Club' })).toHaveAttribute(
      'href',
      '/subscription',
    );
  });

  it('uses the configured club name', async () => {
    renderApp('/dashboard', { user: testUser(), config: { club_name: 'Pit Crew' } });
    const panel = within(await screen.findByRole('region', { name: 'Pit Crew' }));
    expect(panel.getByRole('link', { name: 'Join the Pit Crew' })).toBeVisible();
  });

  it.each([
    ['a member', MEMBER],
    ['a customer', testUser()],
  ])('shows no club text, panel or link to %s when the club is off', async (_, user) => {
    const { container } = renderApp('/dashboard', { user, config: { club_enabled: false } });
    expect(await screen.findByRole('heading', { level: 1 })).toBeVisible();
    await screen.findByRole('button', { name: 'Recent Transactions' });
    await userEvent.click(screen.getByRole('button', { name: 'Book Now' }));
    expect(screen.getByRole('link', { name: 'Book a Simulator' })).toBeVisible();
    expect(container.querySelector('a[href^="/subscription"]')).toBeNull();
    expect(document.body.textContent).not.toMatch(
      /Apex Club|Save 20%|Member|credits|subscription|club/i,
    );
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });
});

describe('cancel-subscription modal', () => {
  it('explains the terms and cancels: good standing false at once, then the user reloads', async () => {
    let cancelled = false;
    const calls = stubApi({
      'POST /api/users/me/charges/credits_unenroll': () => {
        cancelled = true;
        return {
          body: {
            detail:
              'Your Apex Club membership is cancelled. The discounts given, $20.00, were charged back.',
            charge_back_cents: 2000,
          },
        };
      },
      'GET /api/users/7': () => ({
        body: cancelled ? testUser() : MEMBER,
      }),
      'GET /api/users/me/subscriptions': {
        body: {
          count: 1,
          next: null,
          previous: null,
          results: [{ id: 3, cancel_charge_back_cents: 2000 }],
        },
      },
    });
    renderApp('/dashboard', { user: MEMBER });
    const panel = within(await clubPanel());
    await userEvent.click(panel.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Subscription' }));
    expect(dialog.getByText(/irreversible/)).toBeVisible();
    expect(dialog.getByText(CANCEL_CHARGE_BACK)).toBeVisible();
    // What it will charge, before the customer confirms (issue 30).
    expect(
      await dialog.findByText(
        'Cancelling now charges $20.00 to your card: the discounts given, charged back as the terms say.',
      ),
    ).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel Subscription' }));
    expect(
      await screen.findByText(/membership is cancelled\. The discounts given, \$20\.00/),
    ).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Save 20% on every race')).toBeVisible();
    expect(calls.filter((c) => c.path === '/api/users/7').length).toBeGreaterThan(0);
  });

  it('keeps the confirm button disabled unless the subscription is cancelable', async () => {
    renderApp('/dashboard', {
      user: testUser({ ...MEMBER, credits_subscription_cancelable: false }),
    });
    const panel = within(await clubPanel());
    await userEvent.click(panel.getByRole('button', { name: 'Cancel Subscription' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel Subscription' }));
    expect(dialog.getByRole('button', { name: 'Cancel Subscription' })).toBeDisabled();
    expect(dialog.getByText(NOT_CANCELABLE)).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Keep Membership' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
