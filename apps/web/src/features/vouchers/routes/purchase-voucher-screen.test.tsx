import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import {
  COMMENTS_TOO_LONG,
  RECIPIENT_EMAIL_REQUIRED,
  SENDER_NAME_REQUIRED,
} from '../voucher-purchase-rules';
import { CARD_REQUIRED_FOR_VOUCHER } from './purchase-voucher-screen';

const CARD = { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2034, postal_code: '' };

describe('/vouchers/purchase', () => {
  it('buys $100 when the amount is empty, shows the code, and Done follows redirect', async () => {
    const calls = stubApi({
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/me/vouchers/purchase': {
        body: { code: 'ABCD2345EFGH', amount_cents: 10000 },
      },
    });
    const { router } = renderApp('/vouchers/purchase?redirect=/laps', { user: testUser() });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Purchase Gift Voucher' }),
    ).toBeVisible();
    expect(await screen.findByText('$100.00')).toBeVisible();
    expect(screen.getByText('Your Visa ending in 4242 will be charged.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Purchase Voucher' }));
    expect(await screen.findByText('ABCD-2345-EFGH')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Your gift voucher is ready' })).toHaveFocus();
    expect(calls.find((c) => c.path.endsWith('/vouchers/purchase'))?.body).toEqual({
      amount_cents: 10000,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/laps'));
  });

  it('counts a non-integer amount as $100 and goes to reservations when done', async () => {
    const calls = stubApi({
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/me/vouchers/purchase': {
        body: { code: 'ZZZZ2345EFGH', amount_cents: 10000 },
      },
    });
    const { router } = renderApp('/vouchers/purchase', { user: testUser() });
    await userEvent.type(await screen.findByLabelText('Amount (whole dollars)'), '12.5');
    expect(screen.getByText('$100.00')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Purchase Voucher' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reservations/all'));
    expect(calls.find((c) => c.path.endsWith('/vouchers/purchase'))?.body).toEqual({
      amount_cents: 10000,
    });
  });

  it('sending to someone needs their e-mail and your name; comments at most 200', async () => {
    const calls = stubApi({
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/me/vouchers/purchase': {
        body: { code: 'FRND2345EFGH', amount_cents: 2500 },
      },
    });
    renderApp('/vouchers/purchase', { user: testUser() });
    await userEvent.type(await screen.findByLabelText('Amount (whole dollars)'), '25');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send it to someone' }));
    await userEvent.click(screen.getByRole('button', { name: 'Purchase Voucher' }));
    expect(await screen.findByText(RECIPIENT_EMAIL_REQUIRED)).toBeVisible();
    expect(screen.getByText(SENDER_NAME_REQUIRED)).toBeVisible();
    expect(screen.getByLabelText('Recipient Email')).toHaveAccessibleDescription(
      RECIPIENT_EMAIL_REQUIRED,
    );

    await userEvent.type(screen.getByLabelText('Recipient Email'), 'friend@example.com');
    await userEvent.type(screen.getByLabelText('Your Name'), 'Sam');
    const comments = screen.getByLabelText('Message (optional)');
    await userEvent.click(comments);
    await userEvent.paste('x'.repeat(201));
    await userEvent.click(screen.getByRole('button', { name: 'Purchase Voucher' }));
    expect(await screen.findByText(COMMENTS_TOO_LONG)).toBeVisible();
    expect(screen.getByText('201/200 characters')).toBeVisible();
    expect(calls.some((c) => c.path.endsWith('/vouchers/purchase'))).toBe(false);

    await userEvent.clear(comments);
    await userEvent.type(comments, 'Happy birthday!');
    await userEvent.click(screen.getByRole('button', { name: 'Purchase Voucher' }));
    expect(await screen.findByText("We've e-mailed the code to friend@example.com.")).toBeVisible();
    expect(calls.find((c) => c.path.endsWith('/vouchers/purchase'))?.body).toEqual({
      amount_cents: 2500,
      email_to: 'friend@example.com',
      email_from_name: 'Sam',
      email_comments: 'Happy birthday!',
    });
  });

  it('shows a refused purchase as a danger alert and keeps the form', async () => {
    stubApi({
      'GET /api/users/7/card': { body: CARD },
      'POST /api/users/me/vouchers/purchase': {
        status: 400,
        body: { non_field_errors: ['Your card was declined.'] },
      },
    });
    renderApp('/vouchers/purchase', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Purchase Voucher' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(screen.getByRole('button', { name: 'Purchase Voucher' })).toBeVisible();
  });

  it('asks for a card first when none is saved', async () => {
    stubApi({ 'GET /api/users/7/card': { body: {} } });
    renderApp('/vouchers/purchase', { user: testUser() });
    expect(await screen.findByText(CARD_REQUIRED_FOR_VOUCHER)).toBeVisible();
    expect(screen.getByLabelText('Card Number')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Purchase Voucher' })).toBeNull();
  });
});
