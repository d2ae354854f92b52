import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CURRENT_PASSWORD_WRONG,
  FORGOT_PASSWORD_MESSAGE,
  PASSWORD_UPDATED_MESSAGE,
} from '@paddock/contract/accounts';
import { setToken } from '../../../lib/auth-store';
import { stubApi, type StubAnswer } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { PASSWORD_HINT, PASSWORDS_MUST_MATCH } from '../forms';
import { FORGOT_PASSWORD_FAILED } from './forgot-password-screen';

/** The last password change sent: other calls (the session's own reads) may come after it. */
const lastUpdate = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((c) => c.path.endsWith('/update_password')).at(-1);

describe('/login/password/reset', () => {
  it('submits only with a valid e-mail pattern', async () => {
    renderApp('/login/password/reset');
    const button = await screen.findByRole('button', { name: 'Send Login Link' });
    const email = screen.getByLabelText('Email');
    await userEvent.type(email, 'sam@example');
    expect(button).toBeDisabled();
    await userEvent.type(email, '.com');
    expect(button).toBeEnabled();
  });

  it('confirms with the spec message, without the auth header', async () => {
    const calls = stubApi({ 'POST /api/users/forgot_password': { body: { detail: 'ok' } } });
    renderApp('/login/password/reset');
    await userEvent.type(await screen.findByLabelText('Email'), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Login Link' }));
    expect(await screen.findByText(FORGOT_PASSWORD_MESSAGE)).toBeVisible();
    const call = calls.find((c) => c.path === '/api/users/forgot_password');
    expect(call?.body).toEqual({ email: 'sam@example.com' });
    expect(call?.authorization).toBeNull();
  });

  it('says auth failed on a 400', async () => {
    stubApi({ 'POST /api/users/forgot_password': { status: 400, body: { email: ['Bad.'] } } });
    renderApp('/login/password/reset');
    await userEvent.type(await screen.findByLabelText('Email'), 'sam@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Login Link' }));
    expect(await screen.findByText(FORGOT_PASSWORD_FAILED)).toBeVisible();
  });
});

describe('/profile/password/change', () => {
  it('needs a new password equal to its confirmation', async () => {
    renderApp('/profile/password/change', { user: testUser() });
    const button = await screen.findByRole('button', { name: 'Change Password' });
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-password-0');
    await userEvent.type(screen.getByLabelText('New Password'), 'new-password-1');
    expect(screen.getByText(PASSWORD_HINT)).toBeVisible();
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'new-password-2');
    expect(button).toBeDisabled();
    await userEvent.tab();
    expect(await screen.findByText(PASSWORDS_MUST_MATCH)).toBeVisible();
    await userEvent.clear(screen.getByLabelText('Confirm New Password'));
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'new-password-1');
    expect(button).toBeEnabled();
  });
});

/** A session token as a login link's exchange gives it: with its reset allowance (0113). */
function linkSessionToken(userId: number, resetUntil: number) {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return `${encode({ alg: 'HS256' })}.${encode({ user_id: userId, exp, password_reset_until: resetUntil })}.sig`;
}

describe('/profile/password/change and the current password (decision 0113)', () => {
  const fill = async (current: string | null, next: string) => {
    if (current !== null) await userEvent.type(screen.getByLabelText('Current Password'), current);
    await userEvent.type(screen.getByLabelText('New Password'), next);
    await userEvent.type(screen.getByLabelText('Confirm New Password'), next);
  };

  it("asks for it, sends it, and shows the server's word on it when wrong", async () => {
    let answer: StubAnswer = { status: 400, body: { current_password: [CURRENT_PASSWORD_WRONG] } };
    const calls = stubApi({ 'POST /api/users/7/update_password': () => answer });
    renderApp('/profile/password/change', { user: testUser() });
    const button = await screen.findByRole('button', { name: 'Change Password' });
    await fill(null, 'new-password-1');
    // Without the current password the form cannot be sent.
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Current Password'), 'not-mine');
    await userEvent.click(button);
    expect(await screen.findByText(CURRENT_PASSWORD_WRONG)).toBeVisible();
    const field = screen.getByLabelText('Current Password');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(lastUpdate(calls)?.body).toEqual({
      new_password: 'new-password-1',
      current_password: 'not-mine',
    });
    answer = { status: 200, body: { detail: PASSWORD_UPDATED_MESSAGE } };
    await userEvent.clear(field);
    await userEvent.type(field, 'my-old-password{Enter}');
    expect(await screen.findByText(PASSWORD_UPDATED_MESSAGE)).toBeVisible();
    expect(lastUpdate(calls)?.body).toEqual({
      new_password: 'new-password-1',
      current_password: 'my-old-password',
    });
  });

  it('does not ask right after a reset link', async () => {
    const calls = stubApi({
      'POST /api/users/7/update_password': { body: { detail: PASSWORD_UPDATED_MESSAGE } },
    });
    renderApp('/profile/password/change', { user: testUser() });
    setToken(linkSessionToken(7, Math.floor(Date.now() / 1000) + 600));
    await screen.findByRole('button', { name: 'Change Password' });
    expect(screen.queryByLabelText('Current Password')).toBeNull();
    await fill(null, 'after-reset-1');
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText(PASSWORD_UPDATED_MESSAGE)).toBeVisible();
    expect(lastUpdate(calls)?.body).toEqual({ new_password: 'after-reset-1' });
  });

  it('asks again once the reset allowance has run out', async () => {
    renderApp('/profile/password/change', { user: testUser() });
    setToken(linkSessionToken(7, Math.floor(Date.now() / 1000) - 1));
    expect(await screen.findByLabelText('Current Password')).toBeVisible();
  });

  it('does not ask a user who never chose a password', async () => {
    renderApp('/profile/password/change', { user: testUser({ is_onboarded: false }) });
    await screen.findByRole('button', { name: 'Change Password' });
    expect(screen.queryByLabelText('Current Password')).toBeNull();
  });
});
