import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { NO_CARD_FOR_CLUB_MESSAGE } from '@paddock/contract/club';
import { clubMemberships, creditBalances, creditEntries } from '../../db/schema/club';
import { settings } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { nextCycleDate } from './billing-cycle';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ZONE = 'America/Los_Angeles'; // no location in this database: the default venue zone

const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  user: CreatedUser | undefined,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    headers: user ? bearer(user.token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const quote = (user: CreatedUser | undefined, query: string) =>
  call('GET', `/api/users/me/charges/credits_purchase_quote${query}`, user);
const enroll = (user: CreatedUser, payload: unknown, who: string | number = 'me') =>
  call('POST', `/api/users/${who}/charges/credits_enroll`, user, payload);
const unenroll = (user: CreatedUser, who: string | number = 'me') =>
  call('POST', `/api/users/${who}/charges/credits_unenroll`, user);
const me = async (user: CreatedUser) => (await call('GET', '/api/users/me', user)).json();
const subscriptions = (user: CreatedUser, who: string | number = 'me') =>
  call('GET', `/api/users/${who}/subscriptions`, user);
const clubCharges = (userId: number) =>
  t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, userId), eq(charges.kind, 'club')))
    .orderBy(charges.id);

async function setSetting(key: string, value: unknown) {
  await t.db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
}
async function clearSetting(key: string) {
  await t.db.delete(settings).where(eq(settings.key, key));
}

async function member(card = '4242424242424242', credits = 1000) {
  const user = await createUser(t);
  await saveTestCard(t, user, card);
  const res = await enroll(user, { credits_amount: credits });
  expect(res.statusCode, res.body).toBe(200);
  return user;
}

describe('GET credits_purchase_quote', () => {
  it('answers credits × 10 cents less the club discount', async () => {
    const user = await createUser(t);
    const res = await quote(user, '?credits=1000');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      quoted_cents: 10_000,
      discount_percent: 20,
      total_cents: 8_000,
      first_charge_cents: 8_000,
    });
  });

  it('refuses bad amounts naming credits', async () => {
    const user = await createUser(t);
    for (const query of [
      '',
      '?credits=',
      '?credits=abc',
      '?credits=2.5',
      '?credits=-250',
      '?credits=0',
      '?credits=750',
      '?credits=1100',
      '?credits=25250',
    ]) {
      const res = await quote(user, query);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json()), query).toEqual(['credits']);
    }
    expect((await quote(user, '?credits=750')).json()).toEqual({
      credits: ['Minimum of 4 sessions per month required to join'],
    });
  });

  it('lowers the minimum to one session with a first-race price', async () => {
    const user = await createUser(t);
    await setSetting('club_first_race_cents', 900);
    try {
      const res = await quote(user, '?credits=250');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ total_cents: 2000, first_charge_cents: 900 });
    } finally {
      await clearSetting('club_first_race_cents');
    }
  });

  it('needs a login', async () => {
    expect((await quote(undefined, '?credits=1000')).statusCode).toBe(401);
  });
});

describe('POST credits_enroll', () => {
  it('charges the first month to card 4242 and credits 1000 for 4 sessions', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const res = await enroll(user, { credits_amount: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const today = DateTime.now().setZone(ZONE).toISODate()!;
    expect(body.subscription.next_charge_on).toBe(
      nextCycleDate(DateTime.fromISO(today).day, today),
    );
    expect(body).toMatchObject({
      detail: 'Welcome to the Apex Club!',
      credits_balance: 1000,
      subscription: {
        name: 'Apex Club',
        status: 'active',
        good_standing: true,
        cancelable: true,
        credits_per_month: 1000,
        price_cents: 8000,
        discount_percent: 20,
        cycles_paid: 1,
        credits_balance: 1000,
        reservations_remaining: 4,
        reservations_remaining_this_month: 4,
        reservations_remaining_next_month: 8,
      },
    });
    const [charge] = await clubCharges(user.id);
    expect(charge).toMatchObject({ amountCents: 8000, errors: '', kind: 'club' });
    expect(charge.idempotencyKey).toBe(`club-${body.subscription.id}-${today}`);

    const view = await me(user);
    expect(view).toMatchObject({
      credits_subscription_exists: true,
      credits_subscription_in_good_standing: true,
      credits_subscription_cancelable: true,
      credits_balance: 1000,
      credits_recurring: 1000,
      credits_recurring_cents: 8000,
      credits_cycle_day_of_month: DateTime.fromISO(today).day,
      customer_id: expect.stringMatching(/^cus_/),
      subscription_id: String(body.subscription.id),
    });

    const list = await subscriptions(user);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, page_count: 1 });
    expect(list.json().results[0]).toEqual(body.subscription);
  });

  it('refuses a second enrolment, and two racing enrolments charge once', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const [a, b] = await Promise.all([
      enroll(user, { credits_amount: 1000 }),
      enroll(user, { credits_amount: 1000 }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toContain(200);
    for (const res of [a, b].filter((r) => r.statusCode !== 200))
      expect(res.json()).toEqual({
        non_field_errors: ['You are already a member of the Apex Club.'],
      });
    expect(await clubCharges(user.id)).toHaveLength(1);
    expect((await me(user)).credits_balance).toBe(1000);

    const again = await enroll(user, { credits_amount: 1250 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      non_field_errors: ['You are already a member of the Apex Club.'],
    });
  });

  it('with the declined card 0341 leaves no membership, and the failed charge is listed', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const res = await enroll(user, { credits_amount: 1000 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
    expect(
      await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)),
    ).toEqual([]);
    expect(await me(user)).toMatchObject({
      credits_subscription_exists: false,
      credits_balance: 0,
      subscription_id: null,
    });
    const listed = await call('GET', '/api/users/me/charges?amount_cents__gt=0', user);
    expect(listed.json().results[0]).toMatchObject({
      amount_cents: 8000,
      errors: 'Your card was declined.',
    });

    // A working card afterwards joins (a new membership, a new charge key).
    await saveTestCard(t, user);
    expect((await enroll(user, { credits_amount: 1000 })).statusCode).toBe(200);
  });

  it('needs a saved card', async () => {
    const user = await createUser(t);
    const res = await enroll(user, { credits_amount: 1000 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [NO_CARD_FOR_CLUB_MESSAGE] });
  });

  it('is refused while the club is disabled', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    await setSetting('club_enabled', false);
    try {
      const res = await enroll(user, { credits_amount: 1000 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ non_field_errors: ['The Apex Club is not available.'] });
      expect((await quote(user, '?credits=1000')).statusCode).toBe(400);
      expect(await clubCharges(user.id)).toEqual([]);
    } finally {
      await clearSetting('club_enabled');
    }
  });

  it('answers 400 naming the field for bad bodies', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const cases: [unknown, string][] = [
      [{}, 'credits_amount'],
      [{ credits_amount: '1000' }, 'credits_amount'],
      [{ credits_amount: 1000.5 }, 'credits_amount'],
      [{ credits_amount: -1000 }, 'credits_amount'],
      [{ credits_amount: null }, 'credits_amount'],
      [{ credits_amount: 500 }, 'credits_amount'],
      [{ credits_amount: 1001 }, 'credits_amount'],
      [{ credits_amount: 1000, extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await enroll(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json()), JSON.stringify(payload)).toEqual([field]);
    }
    expect(await clubCharges(user.id)).toEqual([]);
  });
});

describe('POST credits_unenroll', () => {
  it('within two billing cycles charges back the discounts given', async () => {
    const user = await member();
    // Said before cancelling: the subscription carries what a cancel would charge back.
    expect((await subscriptions(user)).json().results[0].cancel_charge_back_cents).toBe(2000);
    const res = await unenroll(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      detail:
        'Your Apex Club membership is cancelled. The discounts given, $20.00, were charged back.',
      charge_back_cents: 2000,
    });
    const [, chargeBack] = await clubCharges(user.id);
    expect(chargeBack).toMatchObject({ amountCents: 2000, errors: '' });
    expect(await me(user)).toMatchObject({
      credits_subscription_exists: false,
      credits_subscription_in_good_standing: false,
      credits_subscription_cancelable: false,
      credits_balance: 0,
      subscription_id: null,
    });
    expect((await subscriptions(user)).json().count).toBe(0);

    // Cancelled is final: a second cancel has nothing to cancel and charges nothing.
    const again = await unenroll(user);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      non_field_errors: ['You have no Apex Club membership to cancel.'],
    });
    expect(await clubCharges(user.id)).toHaveLength(2);
  });

  it('after two paid cycles charges nothing back', async () => {
    const user = await member();
    await t.db
      .update(clubMemberships)
      .set({ cyclesPaid: 2, discountsGivenCents: 4000 })
      .where(eq(clubMemberships.userId, user.id));
    expect((await subscriptions(user)).json().results[0].cancel_charge_back_cents).toBe(0);
    const res = await unenroll(user);
    expect(res.json()).toEqual({
      detail: 'Your Apex Club membership is cancelled.',
      charge_back_cents: 0,
    });
    expect(await clubCharges(user.id)).toHaveLength(1);
  });

  it('keeps the membership when the charge-back is declined, then cancels with a new card', async () => {
    const user = await member();
    await saveTestCard(t, user, '4000000000000341');
    const res = await unenroll(user);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
    expect((await me(user)).credits_subscription_exists).toBe(true);

    await saveTestCard(t, user);
    const retry = await unenroll(user);
    expect(retry.statusCode).toBe(200);
    const keys = (await clubCharges(user.id)).map((c) => [c.idempotencyKey, c.errors]);
    const id = (
      await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id))
    )[0].id;
    expect(keys.slice(1)).toEqual([
      [`club-${id}-chargeback-0`, 'Your card was declined.'],
      [`club-${id}-chargeback-1`, ''],
    ]);
  });

  it('two racing cancels charge back once', async () => {
    const user = await member();
    const results = await Promise.all([unenroll(user), unenroll(user)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await clubCharges(user.id)).toHaveLength(2);
  });
});

describe('ownership', () => {
  it('lets staff with user.change_user act for a customer, and nobody else', async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const nosy = await createUser(t);
    const plainStaff = await createUser(t, { isStaff: true });
    for (const caller of [nosy, plainStaff]) {
      expect((await enroll(caller, { credits_amount: 1000 }, customer.id)).statusCode).toBe(404);
      expect((await subscriptions(caller, customer.id)).statusCode).toBe(404);
      expect((await unenroll(caller, customer.id)).statusCode).toBe(404);
    }
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const res = await enroll(staff, { credits_amount: 1250 }, customer.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(customer)).credits_balance).toBe(1250);
    expect((await subscriptions(staff, customer.id)).json().count).toBe(1);
    expect((await subscriptions(staff, 999_999)).statusCode).toBe(404);
    // Staff's own club is untouched.
    expect((await subscriptions(staff)).json().count).toBe(0);
  });

  it('needs a login for every call', async () => {
    for (const [method, url] of [
      ['POST', '/api/users/me/charges/credits_enroll'],
      ['POST', '/api/users/me/charges/credits_unenroll'],
      ['GET', '/api/users/me/subscriptions'],
    ] as const) {
      expect((await call(method, url, undefined, {})).statusCode, url).toBe(401);
    }
  });

  it('deleting a user cancels the membership, so nothing renews', async () => {
    const customer = await member();
    const admin = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const res = await call('DELETE', `/api/users/${customer.id}`, admin);
    expect(res.statusCode, res.body).toBe(204);
    // Kept for the books (decision 0016), but cancelled: the renewal job skips it.
    const rows = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, customer.id));
    expect(rows.map((m) => m.status)).toEqual(['cancelled']);
  });
});

describe('credits ledger', () => {
  it('keeps the cached balance equal to the sum of the entries', async () => {
    const user = await member();
    const [{ total }] = await t.db
      .select({ total: sql<number>`coalesce(sum(${creditEntries.delta}), 0)::int` })
      .from(creditEntries)
      .where(eq(creditEntries.userId, user.id));
    const [{ balance }] = await t.db
      .select()
      .from(creditBalances)
      .where(eq(creditBalances.userId, user.id));
    expect(balance).toBe(1000);
    expect(total).toBe(balance);
  });
});

describe('OpenAPI', () => {
  it('documents the club and voucher purchase paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      '/api/users/{id}/charges/credits_purchase_quote',
      '/api/users/{id}/charges/credits_enroll',
      '/api/users/{id}/charges/credits_unenroll',
      '/api/users/{id}/subscriptions',
      '/api/users/me/vouchers/purchase',
    ])
      expect(paths).toContain(path);
  });
});
