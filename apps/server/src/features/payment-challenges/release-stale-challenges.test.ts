import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { reservations, voucherPurchases, vouchers } from '../../db/schema/booking';
import { clubMemberships } from '../../db/schema/club';
import { charges, localCharges, localRefunds, paymentChallenges } from '../../db/schema/payments';
import {
  AUTHENTICATION_EXPIRED_MESSAGE,
  AUTHENTICATION_HOLD_MS,
} from '../../plugins/payments/provider';
import { createTestApp, mailDeps, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { settleByKey, type SettleContext } from './settle-by-key';
import { releaseStaleChallenges } from './release-stale-challenges';

// Challenges nobody answers (decision 0100): after the hold the money repair cancels the intent
// at the provider and marks the attempt released, and what waited on it ends with nothing
// charged; a later answer at the bank or a completion cannot take the money. One completed in
// time is left alone. A challenge passed after the outstanding balance changed is refunded.

let t: TestApp;
let ctx: SettleContext;
let venue: Awaited<ReturnType<typeof createVenue>>;
const later = () => new Date(Date.now() + AUTHENTICATION_HOLD_MS + 60_000);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { name: 'Hold Lane', seats: 4, costCents: 4500 });
  ctx = { db: t.db, payments: t.deps.payments, ...mailDeps(t) };
});
afterAll(() => t.close());

const post = (user: CreatedUser, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

/** A customer with the card that always asks (4000 0027 6000 3184), saved through its challenge. */
async function asking() {
  const user = await createUser(t);
  await saveTestCard(t, user, '4000002760003184');
  return user;
}

async function challengeOf(user: CreatedUser) {
  const rows = await t.db
    .select()
    .from(paymentChallenges)
    .where(eq(paymentChallenges.userId, user.id));
  expect(rows).toHaveLength(1);
  return rows[0];
}

async function providerStatus(intentRef: string) {
  const [row] = await t.db.select().from(localCharges).where(eq(localCharges.id, intentRef));
  return row.status;
}

/** The customer answers the bank after the repair: the page still answers, nothing is taken. */
async function passLate(url: string) {
  await answerChallenge(t, url, 'complete');
}

async function buyVoucher(user: CreatedUser) {
  const res = await post(user, '/api/users/me/vouchers/purchase', {
    amount_cents: 2500,
    email_to: `friend-${user.id}@example.com`,
    email_from_name: 'Sam',
  });
  expect(res.json()).toMatchObject({ status: 'requires_action' });
  return { id: res.json().purchase as number, url: res.json().challenge_url as string };
}

describe('an abandoned challenge is cancelled at the provider after the hold', () => {
  it('a voucher purchase: cancelled, failed, no voucher; a late pass or completion takes nothing', async () => {
    const user = await asking();
    const { id, url } = await buyVoucher(user);
    const challenge = await challengeOf(user);
    // Within the hold nothing is touched.
    expect(await releaseStaleChallenges(ctx)).toBe(0);
    expect(await providerStatus(challenge.intentRef)).toBe('requires_action');

    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    await passLate(url);
    const res = await post(user, `/api/users/me/vouchers/purchases/${id}/complete`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_EXPIRED_MESSAGE] });
    const [purchase] = await t.db
      .select()
      .from(voucherPurchases)
      .where(eq(voucherPurchases.id, id));
    expect(purchase.status).toBe('failed');
    expect(await t.db.select().from(vouchers).where(eq(vouchers.code, purchase.code))).toEqual([]);
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
  });

  it('a club enrolment: cancelled, no membership, no credits', async () => {
    const user = await asking();
    const res = await post(user, '/api/users/me/charges/credits_enroll', { credits_amount: 1000 });
    expect(res.json()).toMatchObject({ status: 'requires_action' });
    const [m] = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, user.id));
    const challenge = await challengeOf(user);
    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
    expect(
      await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)),
    ).toEqual([]);
    await passLate(res.json().challenge_url);
    const done = await post(user, `/api/users/me/subscriptions/${m.id}/complete`);
    expect(done.statusCode).toBe(400);
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
  });

  it('a cancellation charge-back: cancelled, the membership as it was, then a new attempt', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    await post(user, '/api/users/me/charges/credits_enroll', { credits_amount: 1000 });
    await saveTestCard(t, user, '4000002760003184');
    const res = await post(user, '/api/users/me/charges/credits_unenroll');
    expect(res.json()).toMatchObject({ status: 'requires_action' });
    const challenge = await challengeOf(user);
    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
    const [m] = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, user.id));
    expect(m.status).toBe('active');
    await passLate(res.json().challenge_url);
    // The member's next press reads how the old attempt ended, once; then a new challenge.
    const next = await post(user, '/api/users/me/charges/credits_unenroll');
    expect(next.json()).toEqual({ non_field_errors: [AUTHENTICATION_EXPIRED_MESSAGE] });
    const again = await post(user, '/api/users/me/charges/credits_unenroll');
    expect(again.json()).toMatchObject({ status: 'requires_action' });
    const paid = await t.db
      .select()
      .from(charges)
      .where(and(eq(charges.userId, user.id), like(charges.idempotencyKey, '%chargeback%')));
    expect(paid.filter((c) => c.errors === '')).toEqual([]);
  });

  it('one completed in time is not touched', async () => {
    const user = await asking();
    const { id, url } = await buyVoucher(user);
    await answerChallenge(t, url, 'complete');
    expect((await post(user, `/api/users/me/vouchers/purchases/${id}/complete`)).statusCode).toBe(
      200,
    );
    const challenge = await challengeOf(user);
    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).toBeNull();
    expect(await providerStatus(challenge.intentRef)).toBe('succeeded');
  });

  it('one passed in time but finished by nobody: the repair finishes it paid, not cancelled', async () => {
    const user = await asking();
    const { id, url } = await buyVoucher(user);
    await answerChallenge(t, url, 'complete');
    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    const [purchase] = await t.db
      .select()
      .from(voucherPurchases)
      .where(eq(voucherPurchases.id, id));
    expect(purchase.status).toBe('paid');
    expect(await t.db.select().from(vouchers).where(eq(vouchers.code, purchase.code))).toHaveLength(
      1,
    );
  });
});

describe('the outstanding balance', () => {
  const day = futureDate(8, 'America/Los_Angeles');
  let hour = 8;
  const balance = async (user: CreatedUser) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/users/me/balance',
        headers: bearer(user.token),
      })
    ).json().amount_cents as number;

  /** Owes one declined booking, then saves the card that always asks; pay answers its challenge. */
  async function owingChallenged() {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const slot = `${day}T${String(hour++).padStart(2, '0')}:00`;
    const q = (
      await post(user, '/api/reservations/checkouts/quote', {
        reservations: [{ calendar: venue.seats[0].id, slot }],
      })
    ).json();
    expect(
      (await post(user, `/api/reservations/checkouts/${q.checkout_id}/process`)).statusCode,
    ).toBe(402);
    await saveTestCard(t, user, '4000002760003184');
    const res = await post(user, '/api/users/me/charges/capture_outstanding');
    expect(res.json()).toMatchObject({ status: 'requires_action' });
    return { user, url: res.json().challenge_url as string, owed: await balance(user) };
  }

  it('abandoned: cancelled, still owed, and pressing pay again is a new challenge', async () => {
    const { user, url, owed } = await owingChallenged();
    const challenge = await challengeOf(user);
    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    expect(await providerStatus(challenge.intentRef)).toBe('failed');
    expect(await balance(user)).toBe(owed);
    await passLate(url);
    expect(await balance(user)).toBe(owed);
    const again = await post(user, '/api/users/me/charges/capture_outstanding');
    expect(again.json()).toMatchObject({ status: 'requires_action' });
    expect(again.json().challenge_url).not.toBe(url);
  });

  it('passed after the balance changed (0099): the stray charge is refunded in full', async () => {
    const { user, url, owed } = await owingChallenged();
    const challenge = await challengeOf(user);
    // Another unpaid booking before the customer comes back: the balance is not what was asked.
    const [first] = await t.db.select().from(reservations).where(eq(reservations.userId, user.id));
    const { id: _id, ...copy } = first;
    await t.db.insert(reservations).values({ ...copy, calendarId: venue.seats[1].id });
    await answerChallenge(t, url, 'complete');
    // The webhook finds nothing owed under that key any more.
    await settleByKey(ctx, challenge.idempotencyKey);
    expect(await balance(user)).toBe(owed * 2);

    await releaseStaleChallenges(ctx, later());
    expect((await challengeOf(user)).releasedAt).not.toBeNull();
    const lines = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    const stray = lines.find((c) => c.idempotencyKey === challenge.idempotencyKey);
    expect(stray).toMatchObject({ errors: '', amountCents: owed });
    expect(lines.find((c) => c.idempotencyKey === `stray-refund-${stray?.id}`)).toMatchObject({
      errors: '',
      amountCents: -owed,
      kind: 'refund',
    });
    const refunds = await t.db
      .select()
      .from(localRefunds)
      .where(eq(localRefunds.chargeId, challenge.intentRef));
    expect(refunds).toMatchObject([{ amountCents: owed, status: 'succeeded' }]);
    // Still owed in full; a second pass refunds nothing more.
    expect(await balance(user)).toBe(owed * 2);
    await releaseStaleChallenges(ctx, later());
    expect(
      await t.db.select().from(localRefunds).where(eq(localRefunds.chargeId, challenge.intentRef)),
    ).toHaveLength(1);
  });
});
