import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeToken, stubApi } from '../../../test/api-stub';
import { renderApp, testUser } from '../../../test/render-app';
import { getSession, setToken } from '../../../lib/auth-store';
import { LOGIN_LINK_REQUIRED, LOGIN_PROTECTED_MESSAGE } from '@paddock/contract/accounts';
import { LOGIN_FAILED, TOKEN_EXPIRED } from './login-screen';

describe('/login', () => {
  it('enables Log In only when identifier and password are both filled', async () => {
    renderApp('/login');
    const button = await screen.findByRole('button', { name: 'Log In' });
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Email or Username'), 'sam@example.com');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    expect(button).toBeEnabled();
    await userEvent.clear(screen.getByLabelText('Email or Username'));
    expect(button).toBeDisabled();
  });

  it('shows the spec message when the server refuses the login', async () => {
    stubApi({
      'POST /api/auth/token': {
        status: 401,
        body: { detail: 'No active account found with the given credentials' },
      },
    });
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email or Username'), 'sam@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(LOGIN_FAILED)).toBeVisible();
  });

  it('tells the owner of an account under attack to look for a login link in their mail', async () => {
    stubApi({
      'POST /api/auth/token': {
        status: 403,
        body: { detail: LOGIN_PROTECTED_MESSAGE, code: LOGIN_LINK_REQUIRED },
      },
    });
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email or Username'), 'sam@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'right-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    const notice = await screen.findByText(LOGIN_PROTECTED_MESSAGE);
    expect(notice).toBeVisible();
    expect(notice.closest('.alert')).toHaveClass('alert-info');
    expect(screen.queryByText(LOGIN_FAILED)).toBeNull();
  });

  it('logs in and goes to the redirect', async () => {
    const user = testUser();
    stubApi({
      'POST /api/auth/token': { body: { access: fakeToken(user.id), user } },
      'GET /api/auth/permissions': {
        body: { is_staff: false, is_superuser: false, permissions: [] },
      },
    });
    const { router } = renderApp('/login?redirect=%2Flaps');
    await userEvent.type(await screen.findByLabelText('Email or Username'), user.email);
    await userEvent.type(screen.getByLabelText('Password'), 'right-password');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/laps'));
    expect(getSession()?.userId).toBe(user.id);
  });

  it('logs out whoever was signed in', async () => {
    setToken(fakeToken(3));
    renderApp('/login');
    await screen.findByRole('button', { name: 'Log In' });
    await waitFor(() => expect(getSession()).toBeNull());
  });

  it('explains an expired session', async () => {
    renderApp('/login?errorCode=tokenExpired');
    expect(await screen.findByText(TOKEN_EXPIRED)).toBeVisible();
  });

  it('sends an expired login link back with errorCode tokenExpired, without calling the server', async () => {
    const calls = stubApi();
    const { router } = renderApp(`/login?token=${fakeToken(3, -60)}`);
    await waitFor(() => expect(router.state.location.search).toBe('?errorCode=tokenExpired'));
    expect(await screen.findByText(TOKEN_EXPIRED)).toBeVisible();
    expect(calls.some((c) => c.path === '/api/auth/login_link')).toBe(false);
  });

  it('trades a live login link for a session and goes to change password', async () => {
    const user = testUser();
    const calls = stubApi({
      'POST /api/auth/login_link': { body: { access: fakeToken(user.id), user } },
      'GET /api/auth/permissions': {
        body: { is_staff: false, is_superuser: false, permissions: [] },
      },
    });
    const link = fakeToken(user.id, 600);
    const { router } = renderApp(`/login?token=${link}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile/password/change'));
    expect(calls.filter((c) => c.path === '/api/auth/login_link')).toHaveLength(1);
    expect(calls.find((c) => c.path === '/api/auth/login_link')?.body).toEqual({ token: link });
  });
});
