import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { Tokens } from '../../plugins/auth';
import { buildApp } from '../../app';
import { createLoginLink } from './login-links';
import { RENEWED_SESSION_HEADER } from './sessions';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SECRET = 'test-secret-test-secret-test-secret-0123';
const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });
const post = (url: string, token?: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });

async function login(u: CreatedUser): Promise<string> {
  const res = await post('/api/auth/token', undefined, { username: u.email, password: u.password });
  expect(res.statusCode).toBe(200);
  return res.json().access as string;
}

/** A token signed with the right key but claims chosen by the test. */
const forge = (claims: Record<string, unknown>, exp?: number) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (exp !== undefined) jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(SECRET));
};

describe('sessions', () => {
  it('logout ends this session only', async () => {
    const u = await createUser(t);
    const [phone, laptop] = [await login(u), await login(u)];
    expect((await post('/api/auth/logout', phone)).statusCode).toBe(200);
    expect((await me(phone)).json().code).toBe('token_not_valid');
    expect((await me(laptop)).statusCode).toBe(200);
  });

  it('logout_all ends every session of the user, and only theirs', async () => {
    const [u, other] = [await createUser(t), await createUser(t)];
    const [phone, laptop] = [await login(u), await login(u)];
    expect((await post('/api/auth/logout_all', phone)).statusCode).toBe(200);
    for (const token of [phone, laptop]) expect((await me(token)).statusCode).toBe(401);
    expect((await me(other.token)).statusCode).toBe(200);
    expect((await me(await login(u))).statusCode).toBe(200);
  });

  it('a password change ends the other sessions and renews the caller', async () => {
    const u = await createUser(t);
    const [attacker, victim] = [await login(u), await login(u)];
    const res = await post(`/api/users/me/update_password`, victim, {
      new_password: 'a-new-password-123',
      current_password: u.password,
    });
    expect(res.statusCode).toBe(200);
    expect((await me(attacker)).statusCode).toBe(401);
    expect((await me(victim)).statusCode).toBe(401);
    const renewed = res.headers[RENEWED_SESSION_HEADER] as string;
    expect((await me(renewed)).statusCode).toBe(200);
  });

  it('a password set by PATCH ends the other sessions too', async () => {
    const u = await createUser(t);
    const other = await login(u);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: bearer(u.token),
      payload: { password: 'another-password-456', current_password: u.password },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(res.headers[RENEWED_SESSION_HEADER] as string)).statusCode).toBe(200);
  });

  it('staff changing a customer password ends all of the customer sessions', async () => {
    const u = await createUser(t);
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const res = await post(`/api/users/${u.id}/update_password`, staff.token, {
      new_password: 'set-by-staff-789',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers[RENEWED_SESSION_HEADER]).toBeUndefined();
    expect((await me(u.token)).statusCode).toBe(401);
    expect((await me(staff.token)).statusCode).toBe(200);
  });

  it('every API instance on the database sees a logout at once', async () => {
    const u = await createUser(t);
    const token = await login(u);
    const second = await buildApp({ ...t.deps, tokens: new Tokens(SECRET, 3600) });
    try {
      const onSecond = () => second.inject({ url: '/api/users/me', headers: bearer(token) });
      expect((await onSecond()).statusCode).toBe(200);
      expect((await post('/api/auth/logout_all', token)).statusCode).toBe(200);
      expect((await onSecond()).statusCode).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('a login-link login ends the sessions opened before it', async () => {
    const u = await createUser(t);
    const before = await login(u);
    const links = { db: t.db, tokens: t.deps.tokens, mailer: t.deps.mailer, publicUrl: 'http://x' };
    const url = new URL(await createLoginLink(links, u.id, '/dashboard'));
    const res = await post('/api/auth/login_link', undefined, {
      token: url.searchParams.get('token'),
    });
    expect(res.statusCode).toBe(200);
    expect((await me(before)).statusCode).toBe(401);
    expect((await me(res.json().access)).statusCode).toBe(200);
  });
});

describe('session tokens', () => {
  it('refuses tokens without exp, with exp too far ahead, or made for another purpose', async () => {
    const u = await createUser(t);
    const now = Math.floor(Date.now() / 1000);
    const base = { typ: 'session', user_id: u.id, ver: 0, jti: 'forged-1' };
    const tokens = [
      await forge(base),
      await forge(base, now + 365 * 24 * 3600),
      await forge({ ...base, typ: 'login_link' }, now + 600),
      await forge({ ...base, typ: undefined }, now + 600),
      await forge({ user_id: u.id }, now + 600),
      await new Tokens('another-secret-another-secret-another-1', 3600).sign(u.id, 0),
    ];
    for (const token of tokens) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_not_valid');
    }
    expect((await me(await forge(base, now + 600))).statusCode).toBe(200);
  });
});
