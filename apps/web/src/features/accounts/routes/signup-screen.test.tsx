import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { USER_EXISTS_MESSAGE } from '@paddock/contract/accounts';
import { fakeToken, stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { ApiError } from '../../../lib/api-client';
import { getSession } from '../../../lib/auth-store';
import { UNEXPECTED_ERROR } from '../../../lib/error-message';
import { PASSWORD_HINT, PASSWORDS_MUST_MATCH, PHONE_INVALID, isValidPhone } from '../forms';
import { REGISTRATION_FAILED, accountExistsMessage, signupFailure } from '../signup-errors';
import { signupPrompt } from '../signup-prompt';

const permissions = { body: { is_staff: false, is_superuser: false, permissions: [] } };

describe('signup step 0', () => {
  it('needs a valid e-mail before Sign Up', async () => {
    renderApp('/signup');
    const button = await screen.findByRole('button', { name: 'Sign Up' });
    await userEvent.type(screen.getByLabelText('Email'), 'sam@');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Email'), 'example.com');
    expect(button).toBeEnabled();
  });

  it('creates the account with a random 20-character password and moves to step 1', async () => {
    const user = testUser({ first_name: '', last_name: '', is_onboarded: false });
    const calls = stubApi({
      'POST /api/users': { status: 201, body: { access: fakeToken(user.id), user } },
      'GET /api/auth/permissions': permissions,
    });
    renderApp('/signup?redirect=%2Flaps&location=2');
    await userEvent.type(await screen.findByLabelText('Email'), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Your Details' })).toBeVisible();
    const body = calls.find((c) => c.method === 'POST' && c.path === '/api/users')?.body as {
      email: string;
      password: string;
      location: number;
      redirect: string;
    };
    expect(body.email).toBe('sam@example.com');
    expect(body.password).toHaveLength(20);
    expect(body.location).toBe(2);
    expect(body.redirect).toBe('/laps');
    expect(getSession()?.userId).toBe(user.id);
  });

  it('turns an existing account into an info message', async () => {
    stubApi({ 'POST /api/users': { status: 400, body: { username: [USER_EXISTS_MESSAGE] } } });
    renderApp('/signup');
    await userEvent.type(await screen.findByLabelText('Email'), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    const message = await screen.findByText(accountExistsMessage('sam@example.com'));
    expect(message.closest('.alert')).toHaveClass('alert-info');
  });

  it('maps the other failures as the spec says', () => {
    expect(signupFailure(new ApiError(400, { username: ['Too long.'] }, ''), 'a@b.co')).toEqual({
      message: 'Too long.',
      variant: 'danger',
    });
    expect(signupFailure(new ApiError(400, { password: ['Too short.'] }, ''), 'a@b.co')).toEqual({
      message: REGISTRATION_FAILED,
      variant: 'danger',
    });
    expect(signupFailure(new ApiError(503, null, ''), 'a@b.co').message).toBe(UNEXPECTED_ERROR);
    expect(signupFailure(new TypeError('Failed to fetch'), 'a@b.co').message).toBe(
      UNEXPECTED_ERROR,
    );
    const exists = signupFailure(
      new ApiError(400, { username: [USER_EXISTS_MESSAGE] }, ''),
      'x@y.z',
    );
    expect(exists).toMatchObject({ variant: 'info', timeoutMs: 10_000 });
  });

  it('prompts by where the visitor was going', () => {
    expect(signupPrompt('/reservations/all?location=1')).toBe(
      'Sign up or Log in to view sim availability',
    );
    expect(signupPrompt('/vouchers/purchase')).toBe('Sign up or Log in to purchase a voucher');
    expect(signupPrompt('/subscription')).toBe('Sign up or Log in to create a subscription');
    expect(signupPrompt('/laps')).toBeNull();
  });
});

describe('signup step 1', () => {
  it('checks passwords, names, zip code and phone, with the focus hint', async () => {
    const user = testUser({ first_name: '', last_name: '' });
    const calls = stubApi({
      'PATCH /api/users/7': (request) => ({ body: { ...user, ...(request.body as object) } }),
    });
    renderApp('/signup?step=1&keepToken=true', { user });
    const password = await screen.findByLabelText('Password');
    await userEvent.click(password);
    expect(screen.getByText(PASSWORD_HINT)).toBeVisible();
    await userEvent.type(password, 'long-enough-1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'long-enough-2');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(PASSWORDS_MUST_MATCH)).toBeVisible();
    expect(screen.getByText('First name is required')).toBeVisible();
    expect(screen.getByText('Last name is required')).toBeVisible();
    expect(screen.getByText('Zip code is required')).toBeVisible();
    expect(screen.getByText(PHONE_INVALID)).toBeVisible();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'long-enough-1');
    await userEvent.type(screen.getByLabelText('First Name'), 'Sam');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Racer');
    await userEvent.type(screen.getByLabelText('Zip Code'), '94107');
    await userEvent.type(screen.getByLabelText('Phone'), '(555) 123-4567');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Payment Method', level: 2 })).toBeVisible();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      password: 'long-enough-1',
      first_name: 'Sam',
      contact_phone: '(555) 123-4567',
      location: null,
    });
  });

  it('counts only digits and + in the phone number', () => {
    expect(isValidPhone('555-123-456')).toBe(false);
    expect(isValidPhone('555-123-4567')).toBe(true);
    expect(isValidPhone('+44 20 7946 0958')).toBe(true);
    expect(isValidPhone('+44 207 946')).toBe(false);
  });
});

describe('signup step 2', () => {
  it('can be skipped, going to the redirect or reservations', async () => {
    stubApi({ 'GET /api/users/7/card': { body: {} } });
    const { router } = renderApp('/signup?step=2&keepToken=true', { user: testUser() });
    await userEvent.click(await screen.findByRole('button', { name: 'Skip for now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reservations/all'));
  });

  it('offers Next Step once the card is saved', async () => {
    const saved = {
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2030,
      postal_code: null,
    };
    let card: object = {};
    stubApi({
      'GET /api/users/7/card': () => ({ body: card }),
      'POST /api/payments/local/tokens': { body: { id: 'tok_123' } },
      'POST /api/users/7/card': () => {
        card = saved;
        return { body: saved };
      },
    });
    const { router } = renderApp('/signup?step=2&keepToken=true&redirect=%2Flaps', {
      user: testUser(),
    });
    await userEvent.type(await screen.findByLabelText('Card Number'), '4242 4242 4242 4242');
    await userEvent.type(screen.getByLabelText('Expiry Month (MM)'), '12');
    await userEvent.type(screen.getByLabelText('Expiry Year (YY)'), '30');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Add Payment Method' }));
    expect(await screen.findByText('Visa ending in 4242')).toBeVisible();
    // With a card saved there is nothing left to skip.
    expect(screen.queryByRole('button', { name: 'Skip for now' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Next Step' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/laps'));
  });

  it('shows the provider message when the card is refused', async () => {
    stubApi({
      'GET /api/users/7/card': { body: {} },
      'POST /api/payments/local/tokens': { body: { id: 'tok_declined' } },
      'POST /api/users/7/card': {
        status: 402,
        body: { detail: 'Your card was declined.', code: 'payment_failed' },
      },
    });
    renderApp('/signup?step=2&keepToken=true', { user: testUser() });
    await userEvent.type(await screen.findByLabelText('Card Number'), '4000 0000 0000 0002');
    await userEvent.type(screen.getByLabelText('Expiry Month (MM)'), '12');
    await userEvent.type(screen.getByLabelText('Expiry Year (YY)'), '30');
    await userEvent.type(screen.getByLabelText('CVC'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Add Payment Method' }));
    expect(await screen.findByText('Your card was declined.')).toBeVisible();
  });
});
