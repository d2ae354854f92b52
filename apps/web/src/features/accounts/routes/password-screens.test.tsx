import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FORGOT_PASSWORD_MESSAGE } from '@paddock/contract/accounts';
import { stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { PASSWORD_HINT, PASSWORDS_MUST_MATCH } from '../forms';
import { FORGOT_PASSWORD_FAILED } from './forgot-password-screen';

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
