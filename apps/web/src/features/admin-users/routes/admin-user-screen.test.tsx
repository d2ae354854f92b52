import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { stripeCustomerUrl } from './admin-user-screen';

const STAFF = testUser({ id: 1, email: 'staff@example.com', is_staff: true, first_name: 'Staff' });
const PERMISSIONS = ['reservations.change_reservation', 'user.change_user'];
const CUSTOMER = testUser({ id: 42, email: 'cara@example.com', display_name: 'Cara Customer' });
const CARD = { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034, postal_code: null };
const OWED = {
  amount_cents: 2940,
  detail: [{ description: 'Cockpit 1, Wed, Dec 2, 2026, 1:00 PM', amount_cents: 2940 }],
};

const COST = {
  total: 2940,
  items: [{ description: 'Cockpit 1 (30 min)', qty: 1, amount_each: 2940, amount: 2940 }],
};

function open(user = CUSTOMER, handlers: Parameters<typeof stubApi>[0] = {}, config = {}) {
  const calls = stubApi({
    [`GET /api/users/${user.id}`]: { body: user },
    [`GET /api/users/${user.id}/balance`]: { body: OWED },
    [`GET /api/users/${user.id}/cost_breakdown`]: { body: COST },
    [`GET /api/users/${user.id}/card`]: { body: {} },
    ...handlers,
  });
  const view = renderApp(`/admin/user/${user.id}`, {
    user: STAFF,
    permissions: PERMISSIONS,
    config,
  });
  return { calls, ...view };
}

describe('/admin/user/:userId', () => {
  it('shows the outstanding balance in a red alert with its items', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Cara Customer' })).toBeVisible();
    const alert = (await screen.findByText('Outstanding balance: $29.40')).closest('.alert')!;
    expect(alert).toHaveClass('alert-danger');
    expect(within(alert as HTMLElement).getByText(/Cockpit 1, Wed, Dec 2/)).toBeVisible();
    const breakdown = await within(alert as HTMLElement).findByRole('table', {
      name: 'Cost breakdown',
    });
    expect(
      within(breakdown).getByRole('row', { name: /Cockpit 1 \(30 min\) 1 \$29\.40 \$29\.40/ }),
    ).toBeVisible();
    expect(screen.getByRole('switch', { name: 'Active Subscription' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Admin' })).not.toBeChecked();
  });

  it('flags an open payment dispute with its bookings and a link to answer it at Stripe', async () => {
    const dispute = {
      id: 1,
      dispute_ref: 'dp_123',
      charge: 9,
      amount_cents: 3000,
      currency: 'USD',
      reason: 'fraudulent',
      status: 'needs_response',
      reservations: [31, 32],
      opened: '2026-11-20T10:00:00Z',
    };
    open(CUSTOMER, {
      'GET /api/users/42/disputes': {
        body: [
          { ...dispute, open: true, closed: null },
          {
            ...dispute,
            id: 2,
            dispute_ref: 'dp_old',
            open: false,
            status: 'won',
            closed: '2026-11-21T10:00:00Z',
          },
        ],
      },
    });
    const alert = (await screen.findByText('Payment disputed')).closest('.alert') as HTMLElement;
    expect(alert).toHaveClass('alert-danger');
    expect(alert).toHaveTextContent('$30.00 (fraudulent, needs response), bookings #31, #32');
    expect(within(alert).getByRole('link', { name: 'answer it at Stripe' })).toHaveAttribute(
      'href',
      'https://dashboard.stripe.com/disputes/dp_123',
    );
    expect(within(alert).getAllByRole('listitem')).toHaveLength(1);
  });

  it('disables Add Subscription without a card, with the spec warning', async () => {
    open();
    expect(await screen.findByText('Add a payment method to add a new subscription')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add Subscription' })).toBeDisabled();
  });

  it('goes to /subscription/add with the user and a way back once a card is saved', async () => {
    const { router } = open(CUSTOMER, { 'GET /api/users/42/card': { body: CARD } });
    const add = await screen.findByRole('button', { name: 'Add Subscription' });
    await waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription/add'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('userId')).toBe('42');
    expect(query.get('redirect')).toBe('/admin/user/42');
  });

  it('marks everything paid and sends a login link with the spec texts', async () => {
    const { calls } = open(CUSTOMER, {
      'POST /api/users/42/clear_outstanding': { body: { detail: 'ok' } },
      'POST /api/users/42/send_login_link': { body: { detail: 'ok' } },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Mark All Outstanding as Paid' }),
    );
    expect(
      await screen.findByText('All outstanding line items have been marked as Paid'),
    ).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Send Login Link' }));
    expect(await screen.findByText('Sent login link to cara@example.com')).toBeVisible();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(
      'POST /api/users/42/send_login_link',
    );
  });

  it('refuses login links and deletion for staff and users without e-mail', async () => {
    open(testUser({ id: 43, email: '', username: 'walkin', is_staff: true }));
    expect(await screen.findByRole('button', { name: 'Send Login Link' })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: 'Delete User and Cancel Subscription' }),
    ).toBeDisabled();
  });

  it('deletes only after the e-mail is typed, and says so when it fails', async () => {
    open(CUSTOMER, { 'DELETE /api/users/42': { status: 400, body: { non_field_errors: ['x'] } } });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete User and Cancel Subscription' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete User' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/to confirm/), 'cara@example.com');
    await userEvent.click(confirm);
    expect(await screen.findByText("Couldn't delete user!")).toBeVisible();
  });

  it('saves the details with PATCH and the spec text', async () => {
    const { calls } = open(CUSTOMER, {
      'PATCH /api/users/42': { body: { ...CUSTOMER, first_name: 'Carla' } },
    });
    const first = await screen.findByLabelText('First Name');
    await userEvent.clear(first);
    await userEvent.type(first, 'Carla');
    await userEvent.click(screen.getByRole('button', { name: 'Save User' }));
    expect(await screen.findByText('User successfully changed')).toBeVisible();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toMatchObject({ first_name: 'Carla' });
  });

  it("links to the customer in Stripe's dashboard when Stripe is the provider", async () => {
    open(
      testUser({ ...CUSTOMER, customer_id: 'cus_123' }),
      // With a card saved, Stripe.js is not loaded (no widget to mount).
      { 'GET /api/users/42/card': { body: CARD } },
      { payment_provider: 'stripe', stripe_publishable_key: 'pk_test_1' },
    );
    const link = (await screen.findByText('View Customer in Stripe')).closest('a');
    expect(link).toHaveAttribute('href', stripeCustomerUrl('cus_123'));
    expect(stripeCustomerUrl('cus_123')).toBe('https://dashboard.stripe.com/customers/cus_123');
  });
});
