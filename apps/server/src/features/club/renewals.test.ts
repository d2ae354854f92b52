import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { connect, type Database } from '../../db/client';
import { clubMemberships } from '../../db/schema/club';
import { settings } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { createPaymentProvider } from '../../plugins/payments/create-provider';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { runRenewals } from './renewals';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Noon in Los Angeles (the default venue zone) on a date. */
const noonLA = (isoDate: string) => new Date(`${isoDate}T20:00:00Z`);
const deps = () => ({ db: t.db, payments: t.deps.payments });

async function memberDueOn(cycleDay: number, nextChargeOn: string, card = '4242424242424242') {
  const user = await createUser(t);
  await saveTestCard(t, user, card);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/charges/credits_enroll',
    headers: bearer(user.token),
    payload: { credits_amount: 1000 },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.db
    .update(clubMemberships)
    .set({ cycleDay, nextChargeOn })
    .where(eq(clubMemberships.userId, user.id));
  return user;
}

const membershipOf = async (user: CreatedUser) =>
  (await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)))[0];
const renewalsOf = (user: CreatedUser) =>
  t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, user.id), eq(charges.kind, 'club')))
    .orderBy(charges.id)
    .then((rows) => rows.slice(1)); // the first is the enrolment
const userView = async (user: CreatedUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(user.token) })).json();

describe('runRenewals', () => {
  it('charges on the cycle day across month ends: 31 Jan → 28 Feb → 31 Mar', async () => {
    const user = await memberDueOn(31, '2027-01-31');
    expect((await runRenewals(deps(), noonLA('2027-01-30'))).charged).toBe(0);

    await runRenewals(deps(), noonLA('2027-01-31'));
    let m = await membershipOf(user);
    expect(m).toMatchObject({
      nextChargeOn: '2027-02-28',
      cyclesPaid: 2,
      discountsGivenCents: 4000,
      status: 'active',
    });
    expect((await userView(user)).credits_balance).toBe(2000);
    // The same day again: nothing more.
    await runRenewals(deps(), noonLA('2027-01-31'));
    expect(await renewalsOf(user)).toHaveLength(1);

    await runRenewals(deps(), noonLA('2027-02-28'));
    m = await membershipOf(user);
    expect(m.nextChargeOn).toBe('2027-03-31');
    await runRenewals(deps(), noonLA('2027-03-31'));
    expect((await membershipOf(user)).nextChargeOn).toBe('2027-04-30');

    const renewals = await renewalsOf(user);
    expect(renewals.map((c) => [c.idempotencyKey, c.amountCents, c.errors])).toEqual([
      [`club-${m.id}-2027-01-31`, 8000, ''],
      [`club-${m.id}-2027-02-28`, 8000, ''],
      [`club-${m.id}-2027-03-31`, 8000, ''],
    ]);
    expect(renewals[1].notes).toBe('Apex Club: February 2027 (1000 credits)');
    expect((await userView(user)).credits_balance).toBe(4000);
  });

  it('uses the venue-local date: 1 Feb in UTC is still 31 Jan in Los Angeles', async () => {
    const user = await memberDueOn(1, '2027-02-01');
    await runRenewals(deps(), new Date('2027-02-01T05:00:00Z'));
    expect(await renewalsOf(user)).toHaveLength(0);
    await runRenewals(deps(), new Date('2027-02-01T09:00:00Z'));
    expect(await renewalsOf(user)).toHaveLength(1);
  });

  it('a declined renewal marks the member not in good standing and retries daily', async () => {
    const user = await memberDueOn(10, '2027-03-10');
    await saveTestCard(t, user, '4000000000000341');

    await runRenewals(deps(), noonLA('2027-03-10'));
    expect(await membershipOf(user)).toMatchObject({
      status: 'past_due',
      failedAttempts: 1,
      nextChargeOn: '2027-03-10',
    });
    expect(await userView(user)).toMatchObject({
      credits_subscription_exists: true,
      credits_subscription_in_good_standing: false,
      credits_subscription_cancelable: true,
      credits_balance: 1000,
    });
    const subs = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/subscriptions',
      headers: bearer(user.token),
    });
    expect(subs.json().results[0]).toMatchObject({
      status: 'past_due',
      good_standing: false,
      reservations_remaining: 0,
      reservations_remaining_next_month: 8,
    });

    // Later the same day: not again.
    await runRenewals(deps(), new Date('2027-03-11T02:00:00Z'));
    expect(await renewalsOf(user)).toHaveLength(1);
    // Next day: tried again, declined again.
    await runRenewals(deps(), noonLA('2027-03-11'));
    // A new card, the day after: paid; the next cycle stays on the 10th.
    await saveTestCard(t, user);
    await runRenewals(deps(), noonLA('2027-03-12'));

    const m = await membershipOf(user);
    expect(m).toMatchObject({
      status: 'active',
      failedAttempts: 0,
      nextChargeOn: '2027-04-10',
      cyclesPaid: 2,
    });
    expect((await renewalsOf(user)).map((c) => [c.idempotencyKey, c.errors])).toEqual([
      [`club-${m.id}-2027-03-10`, 'Your card was declined.'],
      [`club-${m.id}-2027-03-10-retry1`, 'Your card was declined.'],
      [`club-${m.id}-2027-03-10-retry2`, ''],
    ]);
    expect((await userView(user)).credits_subscription_in_good_standing).toBe(true);
    expect((await userView(user)).credits_balance).toBe(2000);
  });

  it('does not charge cancelled memberships', async () => {
    const user = await memberDueOn(5, '2027-05-05');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/charges/credits_unenroll',
      headers: bearer(user.token),
    });
    expect(res.statusCode).toBe(200);
    await runRenewals(deps(), noonLA('2027-05-05'));
    expect(
      (await renewalsOf(user)).filter((c) => !c.idempotencyKey.includes('chargeback')),
    ).toEqual([]);
  });

  it('renews nothing while the club is disabled', async () => {
    const user = await memberDueOn(6, '2027-06-06');
    await t.db.insert(settings).values({ key: 'club_enabled', value: false });
    try {
      expect(await runRenewals(deps(), noonLA('2027-06-06'))).toEqual({
        charged: 0,
        declined: 0,
        skipped: 0,
      });
      expect(await renewalsOf(user)).toEqual([]);
    } finally {
      await t.db.delete(settings).where(eq(settings.key, 'club_enabled'));
    }
  });

  it('run by two app instances at once charges each member once', async () => {
    const members = await Promise.all(
      Array.from({ length: 6 }, () => memberDueOn(20, '2027-07-20')),
    );
    // A second instance: its own pool and payment provider on the same database.
    const other: Database = connect(t.deps.database.url, 5);
    try {
      const second = {
        db: other.db,
        payments: await createPaymentProvider(t.deps.config, other.db),
      };
      const [a, b] = await Promise.all([
        runRenewals(deps(), noonLA('2027-07-20')),
        runRenewals(second, noonLA('2027-07-20')),
      ]);
      expect(a.charged + b.charged).toBeGreaterThanOrEqual(members.length);
      for (const user of members) {
        const renewals = await renewalsOf(user);
        expect(renewals).toHaveLength(1);
        expect((await membershipOf(user)).nextChargeOn).toBe('2027-08-20');
        expect((await userView(user)).credits_balance).toBe(2000);
      }
      const local = await other.pool.query(
        "select count(*)::int as n from local_charges where idempotency_key like '%club-%-2027-07-20'",
      );
      expect(local.rows[0].n).toBe(members.length);
    } finally {
      await other.close();
    }
  });
});
