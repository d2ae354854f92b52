import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser } from '../../test/factories';
import { buildApp } from '../../app';
import { loginTokens } from '../../db/schema/accounts';
import { rateLimitCounters } from '../../db/schema/security';
import { outboxMessages } from '../../db/schema/content';
import {
  FORGOT_PASSWORD_MESSAGE,
  LOGIN_LINK_REQUIRED,
  LOGIN_PROTECTED_MESSAGE,
} from '@paddock/contract/accounts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const login = (app: TestApp['app'], username: string, password: string, ip = freshIp()) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: { username, password },
    remoteAddress: ip,
  });

describe('login limits', () => {
  it('answer every password alike once one account is under attack, and mail its owner a link', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 20; i++)
      expect((await login(t.app, u.email, 'guess-' + i)).statusCode).toBe(401);
    // The owner, from a fresh address, is not locked out: their mailbox lets them in.
    const owner = await login(t.app, u.email, u.password);
    expect(owner.statusCode).toBe(403);
    expect(owner.json()).toEqual({ detail: LOGIN_PROTECTED_MESSAGE, code: LOGIN_LINK_REQUIRED });
    const [mail] = await linkMailsAfter(u.id, u.email, 1);
    const token = new URL(/https?:\/\/\S+\/login\?\S+/.exec(mail.text ?? '')![0]).searchParams.get(
      'token',
    );
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login_link',
      payload: { token },
      remoteAddress: freshIp(),
    });
    expect(exchanged.statusCode).toBe(200);
    expect(exchanged.json().user.id).toBe(u.id);
    // The attacker's guesses learn nothing (the same answer) and mail nothing.
    for (const guess of ['guess-21', u.password + 'x']) {
      const attacker = await login(t.app, u.email, guess);
      expect(attacker.statusCode).toBe(403);
      expect(attacker.json()).toEqual(owner.json());
    }
    const [counter] = await t.db
      .select()
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.key, `link-mail:user:${u.id}`));
    expect(counter.hits).toBe(1);
    // An unknown name under the same attack answers the same, so nothing tells them apart.
    for (let i = 0; i < 20; i++) await login(t.app, 'nobody-here@example.com', 'guess-' + i);
    expect((await login(t.app, 'nobody-here@example.com', 'x')).json()).toEqual(owner.json());
    // Other accounts are not affected.
    const other = await createUser(t);
    expect((await login(t.app, other.email, other.password)).statusCode).toBe(200);
  });

  it('still refuse the attacking address itself with a 429', async () => {
    const u = await createUser(t);
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect((await login(t.app, u.email, 'guess-' + i, ip)).statusCode).toBe(401);
    const limited = await login(t.app, u.email, u.password, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('hold across API instances on one database', async () => {
    const u = await createUser(t);
    const second = await buildApp(t.deps);
    try {
      const ip = freshIp();
      for (let i = 0; i < 5; i++) {
        expect((await login(t.app, u.email, 'wrong', ip)).statusCode).toBe(401);
        expect((await login(second, u.email, 'wrong', ip)).statusCode).toBe(401);
      }
      expect((await login(second, u.email, 'wrong', ip)).statusCode).toBe(429);
      expect((await login(t.app, u.email, 'wrong', ip)).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('count successful logins only against the address, not the account', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 25; i++)
      expect((await login(t.app, u.email, u.password)).statusCode).toBe(200);
  });
});

describe('signup with an existing e-mail', () => {
  it('mails at most one login link per account per window and writes nothing else', async () => {
    const u = await createUser(t, { email: 'popular@example.com' });
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { email: 'Popular@example.com', password: 'whatever-123456' },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(400);
    }
    const mails = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, 'popular@example.com'));
    expect(mails).toHaveLength(1);
    const links = await t.db.select().from(loginTokens).where(eq(loginTokens.userId, u.id));
    expect(links).toHaveLength(1);
  });
});

describe('signup limits', () => {
  it('hold per address across the hour', async () => {
    const ip = freshIp();
    const signup = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { email: `many${i}@example.com`, password: 'whatever-123456' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i++) expect((await signup(i)).statusCode).toBe(201);
    expect((await signup(10)).statusCode).toBe(429);
  });
});

/** The outbox rows to `to`, once the background sends of `requests` requests have all decided. */
async function linkMailsAfter(userId: number, to: string, requests: number) {
  const counterKey = `link-mail:user:${userId}`;
  for (let i = 0; i < 250; i++) {
    const [counter] = await t.db
      .select()
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.key, counterKey));
    const mails = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));
    if ((counter?.hits ?? 0) >= requests && mails.length > 0) return mails;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the ${requests} requests for ${to} did not all decide`);
}

describe('login-link mails', () => {
  it('go out once per account per window, however many addresses ask', async () => {
    const u = await createUser(t, { email: 'reset-me@example.com' });
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/forgot_password',
        payload: { email: 'Reset-Me@example.com' },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: FORGOT_PASSWORD_MESSAGE });
    }
    expect(await linkMailsAfter(u.id, 'reset-me@example.com', 8)).toHaveLength(1);
  });

  it('share one window between forgot password and signup, on every instance', async () => {
    const u = await createUser(t, { email: 'both-ways@example.com' });
    const second = await buildApp(t.deps);
    try {
      for (const app of [t.app, second]) {
        await app.inject({
          method: 'POST',
          url: '/api/users/forgot_password',
          payload: { email: u.email },
          remoteAddress: freshIp(),
        });
        const signup = await app.inject({
          method: 'POST',
          url: '/api/users',
          payload: { email: u.email, password: 'whatever-123456' },
          remoteAddress: freshIp(),
        });
        expect(signup.statusCode).toBe(400);
      }
      expect(await linkMailsAfter(u.id, u.email, 4)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('an attack on one account from many addresses (decision 0113)', () => {
  const forgot = (email: string, ip = freshIp()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/forgot_password',
      payload: { email },
      remoteAddress: ip,
    });

  it('never keeps the owner from a mailbox link that logs them in and resets the password', async () => {
    const u = await createUser(t, { email: 'besieged@example.com' });
    for (let i = 0; i < 25; i++) {
      expect([401, 403]).toContain((await login(t.app, u.email, 'guess-' + i)).statusCode);
      expect((await forgot(u.email)).statusCode).toBe(200);
    }
    // The owner's reset is answered like any other, never refused for the attacker's requests.
    const owner = await forgot(u.email);
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toEqual({ detail: FORGOT_PASSWORD_MESSAGE });
    // Their right password meets the protected notice (a link is in the mail), not a refusal.
    expect((await login(t.app, u.email, u.password)).json().code).toBe(LOGIN_LINK_REQUIRED);
    // 25 + 1 resets and 1 right password: one mail for the whole window (5 minutes).
    const mails = await linkMailsAfter(u.id, u.email, 27);
    expect(mails).toHaveLength(1);
    const token = new URL(
      /https?:\/\/\S+\/login\?\S+/.exec(mails[0].text ?? '')![0],
    ).searchParams.get('token');
    const exchanged = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login_link',
      payload: { token },
      remoteAddress: freshIp(),
    });
    expect(exchanged.statusCode).toBe(200);
    const session = { authorization: `Bearer ${exchanged.json().access}` };
    const me = await t.app.inject({ url: '/api/users/me', headers: session });
    expect(me.json().id).toBe(u.id);
    // The reset by mail sets a new password without the old one, as before.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/update_password',
      headers: session,
      payload: { new_password: 'safe-again-2024' },
    });
    expect(reset.statusCode).toBe(200);

    // The next window: the attack goes on, the owner's inbox gets one more link, no flood.
    await t.db
      .update(rateLimitCounters)
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimitCounters.key, `link-mail:user:${u.id}`));
    for (let i = 0; i < 10; i++) expect((await forgot(u.email)).statusCode).toBe(200);
    for (let i = 0; i < 250; i++) {
      const all = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, u.email));
      if (all.length > 1) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await linkMailsAfter(u.id, u.email, 10)).toHaveLength(2);
  });

  it('still stops one address that asks for too many resets', async () => {
    const u = await createUser(t);
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await forgot(u.email, ip)).statusCode).toBe(200);
    const limited = await forgot(u.email, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    // Its neighbour, the owner, is not.
    expect((await forgot(u.email)).statusCode).toBe(200);
  });
});
