import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import {
  BAD_CREDENTIALS_MESSAGE,
  CURRENT_PASSWORD_MISSING,
  CURRENT_PASSWORD_WRONG,
  FORGOT_PASSWORD_MESSAGE,
  PERMISSIONS,
  USER_EXISTS_MESSAGE,
} from '@paddock/contract/accounts';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';
import { loginTokens, users } from '../../db/schema/accounts';
import { outboxMessages } from '../../db/schema/content';
import { locations } from '../../db/schema/venue';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Rate limits count per IP: each test speaks from its own address unless it tests the limit.
let ipCounter = 0;
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

type InjectOptions = {
  headers?: Record<string, string>;
  payload?: unknown;
  remoteAddress?: string;
};
async function call(method: string, url: string, opts: InjectOptions = {}) {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: opts.headers,
    payload: opts.payload as Record<string, unknown>,
    remoteAddress: opts.remoteAddress ?? freshIp(),
  });
}

/** The newest mail to `to`, waiting for mail sent in the background. */
async function mailTo(to: string, since = 0) {
  for (let i = 0; i < 100; i++) {
    const [row] = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, to))
      .orderBy(desc(outboxMessages.id))
      .limit(1);
    if (row && row.id > since) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no mail to ${to}`);
}
async function lastMailId() {
  const [row] = await t.db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .orderBy(desc(outboxMessages.id))
    .limit(1);
  return row?.id ?? 0;
}
function linkIn(text: string) {
  const match = /https?:\/\/\S+\/login\?\S+/.exec(text);
  if (!match) throw new Error(`no login link in: ${text}`);
  const url = new URL(match[0]);
  return { token: url.searchParams.get('token')!, redirect: url.searchParams.get('redirect') };
}

describe('POST /auth/token', () => {
  it('logs in by username or e-mail, case-insensitively, and records last_login', async () => {
    const u = await createUser(t, { email: 'Mixed.Case@Example.com' });
    for (const username of ['mixed.case@example.com', 'MIXED.CASE@EXAMPLE.COM']) {
      const res = await call('POST', '/api/auth/token', {
        payload: { username, password: u.password },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user).toMatchObject({ id: u.id, email: 'Mixed.Case@Example.com' });
      const me = await call('GET', '/api/users/me', { headers: bearer(body.access) });
      expect(me.statusCode).toBe(200);
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(row.lastLogin).toBeInstanceOf(Date);
  });

  it('logs in by a username that is not the e-mail', async () => {
    const u = await createUser(t);
    await t.db.update(users).set({ username: 'speedy' }).where(eq(users.id, u.id));
    const res = await call('POST', '/api/auth/token/', {
      payload: { username: 'Speedy', password: u.password },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers bad credentials, unknown users and disabled accounts with one 401', async () => {
    const u = await createUser(t);
    const disabled = await createUser(t);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, disabled.id));
    for (const payload of [
      { username: u.email, password: 'wrong-password' },
      { username: 'nobody@example.com', password: 'whatever-it-is' },
      { username: disabled.email, password: disabled.password },
    ]) {
      const res = await call('POST', '/api/auth/token', { payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: BAD_CREDENTIALS_MESSAGE });
    }
  });

  it('limits attempts per IP and username with a 429 that says so', async () => {
    const u = await createUser(t);
    const ip = freshIp();
    const attempt = () =>
      call('POST', '/api/auth/token', {
        payload: { username: u.email, password: 'wrong-password' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/Too many attempts/);
    // Another address is not affected.
    const other = await call('POST', '/api/auth/token', {
      payload: { username: u.email, password: u.password },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('GET /auth/permissions', () => {
  it('lists a customer, staff and superuser permissions', async () => {
    const customer = await createUser(t);
    const staff = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    const admin = await createUser(t, { isSuperuser: true });
    const get = async (token: string) =>
      (await call('GET', '/api/auth/permissions', { headers: bearer(token) })).json();
    expect(await get(customer.token)).toEqual({
      is_staff: false,
      is_superuser: false,
      permissions: [],
    });
    expect(await get(staff.token)).toEqual({
      is_staff: true,
      is_superuser: false,
      permissions: ['reservations.change_reservation'],
    });
    expect((await get(admin.token)).permissions.sort()).toEqual([...PERMISSIONS].sort());
    expect((await call('GET', '/api/auth/permissions')).statusCode).toBe(401);
  });
});

describe('POST /users (signup step 0)', () => {
  it('creates the account, logs in, and the username defaults to the e-mail', async () => {
    const res = await call('POST', '/api/users', {
      payload: { email: 'new.racer@example.com', password: 'Zq7xK2mP9vL4nR8sT1wY' },
    });
    expect(res.statusCode).toBe(201);
    const { access, user } = res.json();
    expect(user).toMatchObject({
      username: 'new.racer@example.com',
      email: 'new.racer@example.com',
      is_onboarded: false,
      is_staff: false,
      display_name: 'new.racer@example.com',
      credits_subscription_exists: false,
      credits_balance: 0,
      customer_id: null,
    });
    const me = await call('GET', '/api/users/me', { headers: bearer(access) });
    expect(me.json().id).toBe(user.id);
  });

  it('keeps a location when it exists and names the field when it does not', async () => {
    const [loc] = await t.db.insert(locations).values({ name: 'Test Track' }).returning();
    const ok = await call('POST', '/api/users', {
      payload: { email: 'located@example.com', password: 'abcdefgh12345678', location: loc.id },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user.location).toBe(loc.id);
    const bad = await call('POST', '/api/users', {
      payload: { email: 'nowhere@example.com', password: 'abcdefgh12345678', location: 99999 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('location');
  });

  it('mails an existing address a one-time login link instead of a second account', async () => {
    const u = await createUser(t, { email: 'taken@example.com' });
    const before = await lastMailId();
    const res = await call('POST', '/api/users', {
      payload: { email: 'Taken@Example.com', password: 'abcdefgh12345678', redirect: '/laps' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ username: [USER_EXISTS_MESSAGE] });

    const mail = await mailTo('taken@example.com', before);
    expect(mail.html).toContain('/login?token=');
    const { token, redirect } = linkIn(mail.text);
    expect(redirect).toBe('/laps');

    // The web decodes the token (user_id, exp) before exchanging it.
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(payload.user_id).toBe(u.id);
    expect(payload.exp - Date.now() / 1000).toBeGreaterThan(29 * 60);
    expect(payload.exp - Date.now() / 1000).toBeLessThanOrEqual(30 * 60);
    expect(payload.exp - Date.now() / 1000).toBeLessThanOrEqual(60 * 60);

    // Not a session token by itself.
    const direct = await call('GET', '/api/users/me', { headers: bearer(token) });
    expect(direct.statusCode).toBe(401);
    expect(direct.json().code).toBe('token_not_valid');

    const first = await call('POST', '/api/auth/login_link', { payload: { token } });
    expect(first.statusCode).toBe(200);
    expect(first.json().user.id).toBe(u.id);
    const me = await call('GET', '/api/users/me', { headers: bearer(first.json().access) });
    expect(me.statusCode).toBe(200);

    const second = await call('POST', '/api/auth/login_link', { payload: { token } });
    expect(second.statusCode).toBe(401);
    expect(second.json()).toEqual({ detail: expect.any(String), code: 'token_not_valid' });

    const [stored] = await t.db.select().from(loginTokens).where(eq(loginTokens.userId, u.id));
    expect(stored.tokenHash).not.toContain(token.split('.')[1]);
    expect(stored.usedAt).toBeInstanceOf(Date);
  });

  it('treats a taken username like a taken e-mail', async () => {
    await createUser(t, { email: 'owner@example.com' });
    const res = await call('POST', '/api/users', {
      payload: {
        email: 'someone.else@example.com',
        username: 'OWNER@example.com',
        password: 'abcdefgh12345678',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ username: [USER_EXISTS_MESSAGE] });
  });

  it('is rate limited per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/api/users', {
        payload: { email: `burst${i}@example.com`, password: 'abcdefgh12345678' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(201);
    }
    const limited = await call('POST', '/api/users', {
      payload: { email: 'burst-more@example.com', password: 'abcdefgh12345678' },
      remoteAddress: ip,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toHaveProperty('detail');
  });
});

describe('POST /auth/login_link', () => {
  it('refuses garbage, expired, unknown and session tokens with token_not_valid', async () => {
    const u = await createUser(t);
    const expired = await t.deps.tokens.signLoginLink(u.id, 'some-jti', -60);
    const unrecorded = await t.deps.tokens.signLoginLink(u.id, 'never-stored', 3600);
    for (const token of ['garbage', 'a.b.c', expired, unrecorded, u.token]) {
      const res = await call('POST', '/api/auth/login_link', { payload: { token } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_not_valid');
    }
  });

  it('answers an expired session token with token_not_valid', async () => {
    const u = await createUser(t);
    const expired = await t.deps.tokens.sign(u.id, 0, -60);
    const res = await call('GET', '/api/users/me', { headers: bearer(expired) });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_not_valid');
  });
});

describe('POST /users/forgot_password', () => {
  it('gives the same answer for known and unknown addresses, and mails known ones', async () => {
    const u = await createUser(t, { email: 'forgetful@example.com' });
    const before = await lastMailId();
    for (const email of ['Forgetful@example.com', 'stranger@example.com']) {
      const res = await call('POST', '/api/users/forgot_password', { payload: { email } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: FORGOT_PASSWORD_MESSAGE });
    }
    const mail = await mailTo('forgetful@example.com', before);
    expect(mail.subject).toMatch(/password/i);
    const { token, redirect } = linkIn(mail.text);
    expect(redirect).toBe('/profile/password/change');
    const exchanged = await call('POST', '/api/auth/login_link', { payload: { token } });
    expect(exchanged.json().user.id).toBe(u.id);
    const none = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'stranger@example.com'));
    expect(none).toHaveLength(0);
  });

  it('names a bad e-mail and rate-limits one network address, never one e-mail', async () => {
    const bad = await call('POST', '/api/users/forgot_password', {
      payload: { email: 'not-an-email' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('email');
    // From many addresses, one e-mail is never refused: that would lock its owner out of the
    // reset (decision 0113); the mails themselves are bounded per account (abuse-limits.test).
    for (let i = 0; i < 15; i++) {
      const res = await call('POST', '/api/users/forgot_password', {
        payload: { email: 'FLOODED@example.com' },
      });
      expect(res.statusCode).toBe(200);
    }
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      const res = await call('POST', '/api/users/forgot_password', {
        payload: { email: `any-${i}@example.com` },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(200);
    }
    const limited = await call('POST', '/api/users/forgot_password', {
      payload: { email: 'flooded@example.com' },
      remoteAddress: ip,
    });
    expect(limited.statusCode).toBe(429);
  });
});

describe('GET/PATCH/PUT /users/{id}', () => {
  it('lets a user read and edit themselves; display name and flag follow', async () => {
    const u = await createUser(t, { firstName: 'Dana', lastName: 'Drift' });
    const res = await call('PATCH', `/api/users/${u.id}`, {
      headers: bearer(u.token),
      payload: {
        first_name: 'Dana',
        last_name: 'Drift',
        contact_phone: '+1 (555) 010-9999',
        zip_code: '90210',
        flag_code: 'CA',
        social_instagram: 'danadrifts',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      display_name: 'Dana Drift',
      flag_code: 'ca',
      flag_url: '/flags/4x3/ca.svg',
    });
    const renamed = await call('PUT', '/api/users/me', {
      headers: bearer(u.token),
      payload: { racer_name: 'DriftQueen' },
    });
    expect(renamed.json().display_name).toBe('DriftQueen');
  });

  it('sets the password through the user save and marks the user onboarded', async () => {
    const signup = await call('POST', '/api/users', {
      payload: { email: 'onboard@example.com', password: 'Zq7xK2mP9vL4nR8sT1wY' },
    });
    const { access, user } = signup.json();
    const res = await call('PATCH', `/api/users/${user.id}`, {
      headers: bearer(access),
      payload: { password: 'my-new-password', first_name: 'On', last_name: 'Board' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().is_onboarded).toBe(true);
    const login = await call('POST', '/api/auth/token', {
      payload: { username: 'onboard@example.com', password: 'my-new-password' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('moves the username along with the e-mail, and refuses taken ones', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const moved = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: { email: 'moved@example.com', current_password: u.password },
    });
    expect(moved.json()).toMatchObject({
      email: 'moved@example.com',
      username: 'moved@example.com',
    });
    const takenEmail = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: { email: other.email.toUpperCase(), current_password: u.password },
    });
    expect(takenEmail.statusCode).toBe(400);
    expect(takenEmail.json()).toHaveProperty('email');
    const takenUsername = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: { username: other.username },
    });
    expect(takenUsername.statusCode).toBe(400);
    expect(takenUsername.json()).toEqual({ username: [USER_EXISTS_MESSAGE] });
  });

  it("never lets a username be another user's e-mail, nor an e-mail another's username", async () => {
    const u = await createUser(t);
    const other = await createUser(t, { email: `real-${Date.now()}@example.com` });
    await t.db.update(users).set({ username: 'handle@example.com' }).where(eq(users.id, other.id));
    const asUsername = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: { username: other.email.toUpperCase() },
    });
    expect(asUsername.statusCode).toBe(400);
    expect(asUsername.json()).toEqual({ username: [USER_EXISTS_MESSAGE] });
    const asEmail = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: {
        email: 'Handle@example.com',
        username: 'someone-else',
        current_password: u.password,
      },
    });
    expect(asEmail.statusCode).toBe(400);
    expect(asEmail.json()).toHaveProperty('email');
    const signup = await call('POST', '/api/users', {
      payload: { email: 'handle@example.com', password: 'abcdefgh12345678' },
    });
    expect(signup.statusCode).toBe(400);
    // The other user still logs in by both names.
    for (const username of [other.email, 'handle@example.com']) {
      const res = await call('POST', '/api/auth/token', {
        payload: { username, password: other.password },
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('never lets a customer read, edit or delete someone else', async () => {
    const me = await createUser(t);
    const victim = await createUser(t);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { first_name: 'Hacked' }],
      ['PUT', { first_name: 'Hacked' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/users/${victim.id}`, {
        headers: bearer(me.token),
        payload,
      });
      // Deleting needs user.change_user whoever the target is: a 403 that tells nothing.
      expect(res.statusCode).toBe(method === 'DELETE' ? 403 : 404);
      expect(res.body).not.toContain(victim.email);
    }
    const pw = await call('POST', `/api/users/${victim.id}/update_password`, {
      headers: bearer(me.token),
      payload: { new_password: 'take-over-now' },
    });
    expect(pw.statusCode).toBe(404);
    const [row] = await t.db.select().from(users).where(eq(users.id, victim.id));
    expect(row.firstName).not.toBe('Hacked');
    expect((await call('GET', `/api/users/${victim.id}`)).statusCode).toBe(401);
  });

  it('never writes staff-only fields', async () => {
    const u = await createUser(t);
    const res = await call('PATCH', '/api/users/me', {
      headers: bearer(u.token),
      payload: { is_staff: true, is_superuser: true },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['is_staff', 'is_superuser']);
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(row.isStaff).toBe(false);
  });

  it('applies the staff permission rules', async () => {
    const customer = await createUser(t);
    const planner = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const colleague = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const admin = await createUser(t, { isSuperuser: true });

    const read = await call('GET', `/api/users/${customer.id}`, {
      headers: bearer(planner.token),
    });
    expect(read.statusCode).toBe(200);
    const plannerEdit = await call('PATCH', `/api/users/${customer.id}`, {
      headers: bearer(planner.token),
      payload: { first_name: 'Nope' },
    });
    expect(plannerEdit.statusCode).toBe(403);

    const managerEdit = await call('PATCH', `/api/users/${customer.id}`, {
      headers: bearer(manager.token),
      payload: { first_name: 'Changed', username: 'renamed-by-staff' },
    });
    expect(managerEdit.statusCode).toBe(200);
    expect(managerEdit.json()).toMatchObject({
      first_name: 'Changed',
      username: 'renamed-by-staff',
    });

    // Staff cannot take over another staff account (password, e-mail); a superuser can edit it.
    const takeover = await call('PATCH', `/api/users/${colleague.id}`, {
      headers: bearer(manager.token),
      payload: { email: 'mine@example.com' },
    });
    expect(takeover.statusCode).toBe(403);
    const takeoverPw = await call('POST', `/api/users/${admin.id}/update_password`, {
      headers: bearer(manager.token),
      payload: { new_password: 'i-am-root-now' },
    });
    // A superuser does not even exist for other staff.
    expect(takeoverPw.statusCode).toBe(404);
    const readAdmin = await call('GET', `/api/users/${admin.id}`, {
      headers: bearer(manager.token),
    });
    expect(readAdmin.statusCode).toBe(404);
    const listed = await call('GET', '/api/users?page_size=100', {
      headers: bearer(manager.token),
    });
    expect(listed.json().results.map((u: { id: number }) => u.id)).not.toContain(admin.id);
    const adminList = await call('GET', '/api/users?page_size=100', {
      headers: bearer(admin.token),
    });
    expect(adminList.json().results.map((u: { id: number }) => u.id)).toContain(admin.id);
    const byAdmin = await call('PATCH', `/api/users/${colleague.id}`, {
      headers: bearer(admin.token),
      payload: { last_name: 'Renamed' },
    });
    expect(byAdmin.statusCode).toBe(200);

    expect(
      (await call('GET', '/api/users/424242', { headers: bearer(manager.token) })).statusCode,
    ).toBe(404);
  });
});

describe('bad input', () => {
  const long = 'x'.repeat(10_000);
  const cases: { method: string; url: string; auth: boolean; payload: unknown; field: string }[] = [
    { method: 'POST', url: '/api/auth/token', auth: false, payload: {}, field: 'username' },
    {
      method: 'POST',
      url: '/api/auth/token',
      auth: false,
      payload: { username: 5, password: 'x' },
      field: 'username',
    },
    {
      method: 'POST',
      url: '/api/auth/token',
      auth: false,
      payload: { username: long, password: long },
      field: 'username',
    },
    {
      method: 'POST',
      url: '/api/auth/token',
      auth: false,
      payload: { username: 'a', password: 'b', extra: 1 },
      field: 'extra',
    },
    { method: 'POST', url: '/api/auth/login_link', auth: false, payload: {}, field: 'token' },
    {
      method: 'POST',
      url: '/api/auth/login_link',
      auth: false,
      payload: { token: long },
      field: 'token',
    },
    {
      method: 'POST',
      url: '/api/auth/login_link',
      auth: false,
      payload: { token: ['a'] },
      field: 'token',
    },
    { method: 'POST', url: '/api/users', auth: false, payload: {}, field: 'email' },
    {
      method: 'POST',
      url: '/api/users',
      auth: false,
      payload: { email: 'a@b.co', password: 'short' },
      field: 'password',
    },
    {
      method: 'POST',
      url: '/api/users',
      auth: false,
      payload: { email: `${long}@b.co`, password: 'abcdefgh12345678' },
      field: 'email',
    },
    {
      method: 'POST',
      url: '/api/users',
      auth: false,
      payload: { email: 'a@b.co', password: 'abcdefgh12345678', location: 'here' },
      field: 'location',
    },
    {
      method: 'POST',
      url: '/api/users',
      auth: false,
      payload: { email: 'a@b.co', password: 'abcdefgh12345678', is_staff: true },
      field: 'is_staff',
    },
    {
      method: 'POST',
      url: '/api/users',
      auth: false,
      payload: { email: 'a@b.co', password: 'abcdefgh12345678', redirect: '//evil.example' },
      field: 'redirect',
    },
    {
      method: 'POST',
      url: '/api/users/forgot_password',
      auth: false,
      payload: { email: 42 },
      field: 'email',
    },
    {
      method: 'POST',
      url: '/api/users/forgot_password',
      auth: false,
      payload: { email: long },
      field: 'email',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { racer_name: 'R'.repeat(25) },
      field: 'racer_name',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { first_name: long },
      field: 'first_name',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { location: 'downtown' },
      field: 'location',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { location: 987654 },
      field: 'location',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { flag_code: 'usa' },
      field: 'flag_code',
    },
    {
      method: 'PUT',
      url: '/api/users/me',
      auth: true,
      payload: { email: 'nope' },
      field: 'email',
    },
    {
      method: 'PUT',
      url: '/api/users/me',
      auth: true,
      payload: { password: 'short' },
      field: 'password',
    },
    {
      method: 'PATCH',
      url: '/api/users/me',
      auth: true,
      payload: { username: '' },
      field: 'username',
    },
    {
      method: 'POST',
      url: '/api/users/me/update_password',
      auth: true,
      payload: {},
      field: 'new_password',
    },
    {
      method: 'POST',
      url: '/api/users/me/update_password',
      auth: true,
      payload: { new_password: 'short' },
      field: 'new_password',
    },
    {
      method: 'POST',
      url: '/api/users/me/update_password',
      auth: true,
      payload: { new_password: long },
      field: 'new_password',
    },
    {
      method: 'POST',
      url: '/api/users/me/update_password',
      auth: true,
      payload: { new_password: 12345678 },
      field: 'new_password',
    },
    { method: 'GET', url: '/api/users/abc', auth: true, payload: undefined, field: 'id' },
    { method: 'GET', url: '/api/users?page=0', auth: true, payload: undefined, field: 'page' },
    {
      method: 'GET',
      url: `/api/users?search=${long}`,
      auth: true,
      payload: undefined,
      field: 'search',
    },
  ];

  it.each(cases)('$method $url naming $field', async ({ method, url, auth, payload, field }) => {
    const staff = await createUser(t, { isStaff: true, permissions: ['user.view_user'] });
    const res = await call(method, url, {
      headers: auth ? bearer(staff.token) : undefined,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
  });

  it('answers a body that is not JSON with a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /users/{id}/update_password', () => {
  it('changes the password, onboards, and revokes outstanding login links', async () => {
    const u = await createUser(t, { isOnboarded: false });
    const before = await lastMailId();
    await call('POST', '/api/users/forgot_password', { payload: { email: u.email } });
    const { token } = linkIn((await mailTo(u.email, before)).text);

    const res = await call('POST', `/api/users/${u.id}/update_password`, {
      headers: bearer(u.token),
      payload: { new_password: 'brand-new-secret' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Password updated' });
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(row.isOnboarded).toBe(true);
    const login = await call('POST', '/api/auth/token', {
      payload: { username: u.email, password: 'brand-new-secret' },
    });
    expect(login.statusCode).toBe(200);
    const stale = await call('POST', '/api/auth/login_link', { payload: { token } });
    expect(stale.statusCode).toBe(401);
  });
});

describe('current password (decision 0113)', () => {
  const login = (username: string, password: string) =>
    call('POST', '/api/auth/token', { payload: { username, password } });
  const changePassword = (token: string, payload: object, who = 'me') =>
    call('POST', `/api/users/${who}/update_password`, { headers: bearer(token), payload });
  const patchMe = (token: string, payload: object) =>
    call('PATCH', '/api/users/me', { headers: bearer(token), payload });

  it("is asked for a change of one's own password, by either route", async () => {
    const u = await createUser(t);
    const missing = await changePassword(u.token, { new_password: 'taken-over-123' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ current_password: [CURRENT_PASSWORD_MISSING] });
    const wrong = await changePassword(u.token, {
      new_password: 'taken-over-123',
      current_password: 'not-it-at-all',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ current_password: [CURRENT_PASSWORD_WRONG] });
    for (const payload of [
      { password: 'taken-over-123' },
      { password: 'taken-over-123', current_password: '' },
      { password: 'taken-over-123', current_password: u.password + 'x' },
    ]) {
      const res = await patchMe(u.token, payload);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json())).toEqual(['current_password']);
    }
    expect((await login(u.email, 'taken-over-123')).statusCode).toBe(401);
    expect((await login(u.email, u.password)).statusCode).toBe(200);

    const right = await changePassword(u.token, {
      new_password: 'my-own-choice-1',
      current_password: u.password,
    });
    expect(right.statusCode).toBe(200);
    expect((await login(u.email, 'my-own-choice-1')).statusCode).toBe(200);
    const renewed = right.headers['x-session-token'] as string;
    const byPatch = await patchMe(renewed, {
      password: 'my-own-choice-2',
      current_password: 'my-own-choice-1',
    });
    expect(byPatch.statusCode).toBe(200);
    expect((await login(u.email, 'my-own-choice-2')).statusCode).toBe(200);
  });

  it("is asked for a new e-mail of one's own, not for saving the profile as it is", async () => {
    const u = await createUser(t);
    for (const current_password of [undefined, 'wrong-password']) {
      const res = await patchMe(u.token, { email: `thief-${u.id}@example.com`, current_password });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json())).toEqual(['current_password']);
    }
    // Asked before anything else: a session alone does not learn which addresses are taken.
    const other = await createUser(t);
    const probe = await patchMe(u.token, { email: other.email });
    expect(Object.keys(probe.json())).toEqual(['current_password']);
    const [unchanged] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(unchanged.email).toBe(u.email);
    // The profile form sends the e-mail on every save: unchanged, nothing more is asked.
    const save = await patchMe(u.token, { email: u.email, first_name: 'Same' });
    expect(save.statusCode).toBe(200);
    const moved = await patchMe(u.token, {
      email: `moved-${u.id}@example.com`,
      current_password: u.password,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().email).toBe(`moved-${u.id}@example.com`);
  });

  it('is not asked of staff changing a customer, who still cannot touch a superuser', async () => {
    const customer = await createUser(t);
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const admin = await createUser(t, { isSuperuser: true });
    const email = await call('PATCH', `/api/users/${customer.id}`, {
      headers: bearer(manager.token),
      payload: { email: `desk-fixed-${customer.id}@example.com` },
    });
    expect(email.statusCode).toBe(200);
    const password = await changePassword(
      manager.token,
      { new_password: 'set-at-the-desk' },
      String(customer.id),
    );
    expect(password.statusCode).toBe(200);
    expect(
      (await login(`desk-fixed-${customer.id}@example.com`, 'set-at-the-desk')).statusCode,
    ).toBe(200);
    for (const res of [
      await call('PATCH', `/api/users/${admin.id}`, {
        headers: bearer(manager.token),
        payload: { email: 'mine@example.com', current_password: manager.password },
      }),
      await changePassword(
        manager.token,
        { new_password: 'i-am-root-now', current_password: manager.password },
        String(admin.id),
      ),
    ])
      expect(res.statusCode).toBe(404);
    // A superuser changing their own account is asked like everyone else.
    const own = await changePassword(admin.token, { new_password: 'root-again-123' });
    expect(own.json()).toEqual({ current_password: [CURRENT_PASSWORD_MISSING] });
  });

  it('is not asked for the password right after a reset link, and only then', async () => {
    const u = await createUser(t);
    const before = await lastMailId();
    await call('POST', '/api/users/forgot_password', { payload: { email: u.email } });
    const { token } = linkIn((await mailTo(u.email, before)).text);
    const exchanged = await call('POST', '/api/auth/login_link', { payload: { token } });
    expect(exchanged.statusCode).toBe(200);
    const session = exchanged.json().access as string;
    // The mailbox proved who it is for the password; a new e-mail still needs the password.
    const email = await patchMe(session, { email: `linked-${u.id}@example.com` });
    expect(Object.keys(email.json())).toEqual(['current_password']);
    const reset = await changePassword(session, { new_password: 'chosen-after-reset' });
    expect(reset.statusCode).toBe(200);
    expect((await login(u.email, 'chosen-after-reset')).statusCode).toBe(200);
    // The renewed session is an ordinary one: the next change asks again.
    const renewed = reset.headers['x-session-token'] as string;
    const again = await changePassword(renewed, { new_password: 'and-once-more-1' });
    expect(again.json()).toEqual({ current_password: [CURRENT_PASSWORD_MISSING] });
    // A link session whose allowance has run out is asked too.
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    const stale = await t.deps.tokens.sign(
      u.id,
      row.sessionVersion,
      undefined,
      Math.floor(Date.now() / 1000) - 1,
    );
    const late = await changePassword(stale, { new_password: 'and-once-more-1' });
    expect(late.json()).toEqual({ current_password: [CURRENT_PASSWORD_MISSING] });
  });

  it('stops guessing the current password through a session after a few tries', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 10; i++) {
      const res = await changePassword(u.token, {
        new_password: 'guessed-it-now',
        current_password: `guess-${i}`,
      });
      expect(res.statusCode).toBe(400);
    }
    const limited = await changePassword(u.token, {
      new_password: 'guessed-it-now',
      current_password: u.password,
    });
    expect(limited.statusCode).toBe(429);
    expect((await login(u.email, u.password)).statusCode).toBe(200);
  });
});

describe('GET /users (staff search)', () => {
  it('searches name, e-mail, username, racer name and phone, paginated and ordered', async () => {
    const staff = await createUser(t, { isStaff: true, permissions: ['user.view_user'] });
    const a = await createUser(t, { firstName: 'Quinn', lastName: 'Zephyrson' });
    const b = await createUser(t, { firstName: 'Aaron', lastName: 'Zephyrson' });
    await t.db
      .update(users)
      .set({ racerName: 'ZephyrRacer', contactPhone: '(555) 867-5309' })
      .where(eq(users.id, a.id));
    const search = async (q: string, extra = '') =>
      (
        await call('GET', `/api/users?search=${encodeURIComponent(q)}${extra}`, {
          headers: bearer(staff.token),
        })
      ).json();

    const byLast = await search('zephyrson');
    expect(byLast.results.map((u: { id: number }) => u.id)).toEqual([b.id, a.id]);
    expect((await search('quinn zephyr')).results.map((u: { id: number }) => u.id)).toEqual([a.id]);
    expect((await search('ZEPHYRRACER')).count).toBe(1);
    expect((await search('8675309')).results[0].id).toBe(a.id);
    expect((await search('867-53')).results[0].id).toBe(a.id);
    expect((await search(a.email)).results[0].id).toBe(a.id);
    expect((await search('100%_\\')).count).toBe(0);
    // Words under three letters walk the name order instead of the trigram index (0111).
    const short = (await search('qu ze')).results.map((u: { id: number }) => u.id);
    expect(short).toContain(a.id);
    expect(short).not.toContain(b.id);

    const paged = await search('zephyrson', '&page_size=1&page=2');
    expect(paged).toMatchObject({ count: 2, page_count: 2, page_size: 1 });
    expect(paged.results[0].id).toBe(a.id);
    const past = await call('GET', '/api/users?search=zephyrson&page=3&page_size=1', {
      headers: bearer(staff.token),
    });
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ detail: 'Invalid page.' });
  });

  it('is for staff only', async () => {
    const customer = await createUser(t);
    expect((await call('GET', '/api/users', { headers: bearer(customer.token) })).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/api/users')).statusCode).toBe(401);
  });
});

describe('DELETE /users/{id}', () => {
  it("deletes a customer's personal data for staff with user.change_user", async () => {
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const customer = await createUser(t);
    await call('POST', '/api/users/forgot_password', { payload: { email: customer.email } });
    const res = await call('DELETE', `/api/users/${customer.id}`, {
      headers: bearer(manager.token),
    });
    expect(res.statusCode).toBe(204);
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row).toMatchObject({
      email: '',
      isActive: false,
      username: `deleted-user-${customer.id}`,
    });
    expect(
      await t.db.select().from(loginTokens).where(eq(loginTokens.userId, customer.id)),
    ).toHaveLength(0);
    const gone = await call('GET', '/api/users/me', { headers: bearer(customer.token) });
    expect(gone.statusCode).toBe(401);
  });

  it('refuses staff and superuser targets, and callers without the permission', async () => {
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const planner = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation'],
    });
    const admin = await createUser(t, { isSuperuser: true });
    const customer = await createUser(t);
    for (const target of [planner, admin]) {
      const res = await call('DELETE', `/api/users/${target.id}`, {
        headers: bearer(admin.token),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/cannot be deleted/);
    }
    const byPlanner = await call('DELETE', `/api/users/${customer.id}`, {
      headers: bearer(planner.token),
    });
    expect(byPlanner.statusCode).toBe(403);
    const self = await call('DELETE', '/api/users/me', { headers: bearer(customer.token) });
    expect(self.statusCode).toBe(403);
    expect(
      (await call('DELETE', `/api/users/${manager.id}`, { headers: bearer(manager.token) }))
        .statusCode,
    ).toBe(403);
  });
});

describe('POST /users/{id}/send_login_link', () => {
  it('mails a customer a link, refusing staff, superusers and users without e-mail', async () => {
    const manager = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const customer = await createUser(t);
    const before = await lastMailId();
    const res = await call('POST', `/api/users/${customer.id}/send_login_link`, {
      headers: bearer(manager.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: `Sent login link to ${customer.email}` });
    const { redirect } = linkIn((await mailTo(customer.email, before)).text);
    expect(redirect).toBe('/profile/password/change');

    const staff = await createUser(t, { isStaff: true });
    const admin = await createUser(t, { isSuperuser: true });
    const noMail = await createUser(t);
    await t.db.update(users).set({ email: '' }).where(eq(users.id, noMail.id));
    for (const target of [staff, noMail]) {
      const refused = await call('POST', `/api/users/${target.id}/send_login_link`, {
        headers: bearer(manager.token),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toHaveProperty('non_field_errors');
    }
    const toAdmin = await call('POST', `/api/users/${admin.id}/send_login_link`, {
      headers: bearer(manager.token),
    });
    expect(toAdmin.statusCode).toBe(404);
    const byCustomer = await call('POST', `/api/users/${customer.id}/send_login_link`, {
      headers: bearer(customer.token),
    });
    expect(byCustomer.statusCode).toBe(403);
  });
});

describe('flags', () => {
  it('serves flag images locally', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/flags/4x3/gb.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/image\/svg\+xml/);
    const unknown = await t.app.inject({ method: 'GET', url: '/flags/4x3/zz.svg' });
    expect(unknown.statusCode).toBe(404);
  });
});
