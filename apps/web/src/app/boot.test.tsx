import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeToken, stubApi } from '../test/api-stub';
import { TEST_CONFIG, renderApp, testUser } from '../test/render-app';
import { api } from '../lib/api-client';
import { getSession, setToken } from '../lib/auth-store';
import { createQueryClient } from '../lib/query-client';
import { boot } from './boot';
import { watchSessionExpiry } from './session-expiry';

const here = (path: string) => new URL(path, 'http://localhost') as unknown as Location;
const permissions = { body: { is_staff: false, is_superuser: true, permissions: [] } };

describe('app start (spec §4)', () => {
  it('loads the config, the permissions and the user of a live token', async () => {
    const user = testUser();
    stubApi({
      'OPTIONS /api/': { body: TEST_CONFIG },
      'GET /api/auth/permissions': permissions,
      'GET /api/users/7': { body: user },
    });
    setToken(fakeToken(user.id));
    const client = createQueryClient();
    expect(await boot(client, here('/dashboard'))).toBeNull();
    expect(getSession()?.permissions?.is_superuser).toBe(true);
    expect(client.getQueryData(['users', 7])).toEqual(user);
  });

  it('forgets an expired token without asking the server about it', async () => {
    const calls = stubApi({ 'OPTIONS /api/': { body: TEST_CONFIG } });
    setToken(fakeToken(7, -5));
    expect(await boot(createQueryClient(), here('/dashboard'))).toBeNull();
    expect(getSession()).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/api/']);
  });

  it('sends a rejected session to login with code sessionInvalid', async () => {
    stubApi({
      'OPTIONS /api/': (r) =>
        r.authorization
          ? { status: 401, body: { detail: 'Given token not valid', code: 'token_not_valid' } }
          : { body: TEST_CONFIG },
      'GET /api/auth/permissions': { status: 401, body: { detail: 'x', code: 'token_not_valid' } },
      'GET /api/users/7': { status: 401, body: { detail: 'x', code: 'token_not_valid' } },
    });
    setToken(fakeToken(7));
    const target = await boot(createQueryClient(), here('/laps?x=1'));
    expect(target).toBe('/login?code=sessionInvalid&redirect=%2Flaps%3Fx%3D1');
    expect(getSession()).toBeNull();
  });
});

describe('session expiry while the app runs (spec §8)', () => {
  it('goes to login with errorCode tokenExpired on a token_not_valid answer', async () => {
    const user = testUser();
    const { router, client } = renderApp('/laps', { user });
    await screen.findByRole('heading', { name: 'My Laps' });
    watchSessionExpiry(router, client);
    stubApi({
      'GET /api/anything': { status: 401, body: { detail: 'x', code: 'token_not_valid' } },
    });
    await expect(api('/anything')).rejects.toThrow();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?errorCode=tokenExpired&redirect=%2Flaps');
    expect(getSession()).toBeNull();
  });

  it('treats a 401 while loading the user the same way', async () => {
    stubApi({ 'GET /api/users/9': { status: 401, body: { detail: 'Gone.' } } });
    const { router, client } = renderApp('/login');
    watchSessionExpiry(router, client);
    setToken(fakeToken(9));
    await router.navigate('/profile');
    await waitFor(() => expect(router.state.location.search).toContain('errorCode=tokenExpired'));
  });

  it('explains code=sessionInvalid on the login screen', async () => {
    renderApp('/login?code=sessionInvalid');
    expect(
      await screen.findByText('Your session is no longer valid. Please log in again.'),
    ).toBeVisible();
  });
});
