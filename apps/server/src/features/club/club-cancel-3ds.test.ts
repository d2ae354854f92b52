import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { clubMemberships } from '../../db/schema/club';
import { outboxMessages } from '../../db/schema/content';
import { charges, localCharges } from '../../db/schema/payments';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_HOLD_MS,
  AUTHENTICATION_REQUIRED_MESSAGE,
} from '../../plugins/payments/provider';
import { releaseStaleChallenges } from '../payment-challenges/release-stale-challenges';
import { createTestApp, mailDeps, type TestApp } from '../../test/test-app';
import { clubContext } from '../../test/club-context';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { settleCancellation, type ClubContext } from './club.service';

// Cancelling within two billing cycles with a card whose bank asks for 3-D Secure (decision
// 0100): the member is on the page, so the charge-back asks them; the membership stays as it is
// until the challenge ends, and the cancellation is finished exactly once by whoever asks first:
// the web's return (credits_unenroll again), the webhook (settleCancellation) or a retry.

const CANCELLED = {
  detail: 'Your Apex Club membership is cancelled. The discounts given, $20.00, were charged back.',
  charge_back_cents: 2000,
};

let t: TestApp;
let ctx: ClubContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = clubContext(t);
});
afterAll(() => t.close());

const unenroll = (user: CreatedUser, who: string | number = 'me') =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/${who}/charges/credits_unenroll`,
    headers: bearer(user.token),
  });

/** A member (first month paid by 4242) whose card is now one that always asks (3184). */
async function member() {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/charges/credits_enroll',
    headers: bearer(user.token),
    payload: { credits_amount: 1000 },
  });
  expect(res.statusCode, res.body).toBe(200);
  await saveTestCard(t, user, '4000002760003184');
  return user;
}

/** Cancels and expects the challenge; answers it and the charge-back's key. */
async function awaiting(user: CreatedUser) {
  const res = await unenroll(user);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ status: 'requires_action', client_secret: null });
  const [m] = await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id));
  return { id: m.id, url: res.json().challenge_url as string, key: `club-${m.id}-chargeback-0` };
}

async function state(user: CreatedUser, id: number) {
  const [membership] = await t.db
    .select()
    .from(clubMemberships)
    .where(eq(clubMemberships.userId, user.id));
  const recorded = await t.db
    .select()
    .from(charges)
    .where(
      and(eq(charges.userId, user.id), like(charges.idempotencyKey, `club-${id}-chargeback-%`)),
    );
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:club-${id}-chargeback-%`));
  const receipts = await t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, user.email), like(outboxMessages.subject, '%cancellation%')));
  return {
    membership,
    recorded,
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    receipts,
  };
}

async function expectCancelledOnce(user: CreatedUser, id: number) {
  const s = await state(user, id);
  expect(s.membership).toMatchObject({ id, status: 'cancelled' });
  expect(s.recorded).toMatchObject([{ errors: '', amountCents: 2000 }]);
  expect(s.succeeded).toHaveLength(1);
  expect(s.receipts).toHaveLength(1);
}

describe('cancelling with a charge-back the bank wants authenticated (local provider)', () => {
  it('waits with the membership as it was and nothing charged until the challenge ends', async () => {
    const user = await member();
    const { id, url } = await awaiting(user);
    const s = await state(user, id);
    expect(s.membership).toMatchObject({ status: 'active', chargebackFailures: 0 });
    expect(s.recorded).toEqual([]);
    expect(s.succeeded).toEqual([]);
    // Pressing again before the challenge shows the same challenge.
    expect((await awaiting(user)).url).toBe(url);
    expect(await answerChallenge(t, url, 'complete')).toMatch(
      /\/dashboard\?cancel=authenticated&payment_intent=ch_/,
    );
  });

  it("the web's return first, then the webhook: cancelled once", async () => {
    const user = await member();
    const { id, url, key } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const res = await unenroll(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(CANCELLED);
    expect(await settleCancellation(ctx, key)).toBeNull();
    await expectCancelledOnce(user, id);
  });

  it("the webhook first, then the web's return: cancelled once, the same answer", async () => {
    const user = await member();
    const { id, url, key } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    expect(await settleCancellation(ctx, key)).toEqual(CANCELLED);
    const res = await unenroll(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(CANCELLED);
    await expectCancelledOnce(user, id);
  });

  it('the return, the webhook and a retry at once: cancelled once', async () => {
    const user = await member();
    const { id, url, key } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const [web, , retry] = await Promise.all([
      unenroll(user),
      settleCancellation(ctx, key),
      unenroll(user),
    ]);
    expect(web.json()).toEqual(CANCELLED);
    expect(retry.json()).toEqual(CANCELLED);
    await expectCancelledOnce(user, id);
  });

  it('a failed challenge: nothing charged, the membership as it was, one message', async () => {
    const user = await member();
    const { id, url, key } = await awaiting(user);
    await answerChallenge(t, url, 'fail');
    // The webhook first records the failure; the member's return reads it, once.
    expect(await settleCancellation(ctx, key)).toBeNull();
    const res = await unenroll(user);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    const s = await state(user, id);
    expect(s.membership).toMatchObject({ status: 'active', chargebackFailures: 1 });
    expect(s.succeeded).toEqual([]);
    expect(s.receipts).toEqual([]);
    // Trying again is a new attempt with a new challenge.
    const again = await unenroll(user);
    expect(again.json()).toMatchObject({ status: 'requires_action' });
    expect(again.json().challenge_url).not.toBe(url);
  });

  it('staff cancelling for the customer are not the cardholder: refused with the reason', async () => {
    const user = await member();
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const res = await unenroll(staff, user.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_REQUIRED_MESSAGE] });
    const [m] = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, user.id));
    expect(m.status).toBe('active');
  });
});

describe('cancelling with a charge-back the bank wants authenticated (Stripe)', () => {
  const stripe = new StripeStandIn();
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_paddock',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_paddock',
      ...(await stripe.start()),
    });
  });
  afterAll(async () => {
    await s.close();
    await stripe.close();
  });

  const card = (user: CreatedUser, payload: object) =>
    s.app.inject({
      method: 'POST',
      url: '/api/users/me/card',
      headers: bearer(user.token),
      payload,
    });
  const cancel = (user: CreatedUser) =>
    s.app.inject({
      method: 'POST',
      url: '/api/users/me/charges/credits_unenroll',
      headers: bearer(user.token),
    });

  /** Joined with tok_visa, then Stripe's authentication-required card saved through its challenge. */
  async function stripeMember() {
    const user = await createUser(s);
    expect((await card(user, { token: 'tok_visa' })).statusCode).toBe(200);
    const joined = await s.app.inject({
      method: 'POST',
      url: '/api/users/me/charges/credits_enroll',
      headers: bearer(user.token),
      payload: { credits_amount: 1000 },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const setup = (await card(user, { token: 'tok_authenticationRequired' })).json().setup_intent;
    stripe.authenticate(setup, true);
    expect((await card(user, { setup_intent: setup })).statusCode).toBe(200);
    return user;
  }

  async function challenged(user: CreatedUser) {
    const res = await cancel(user);
    expect(res.json()).toMatchObject({
      status: 'requires_action',
      client_secret: expect.stringMatching(/^pi_\d+_secret_/),
      challenge_url: null,
    });
    const intent = stripe.intents.at(-1)!;
    expect(intent).toMatchObject({ status: 'requires_action', amount: 2000 });
    return intent.id as string;
  }

  const membershipOf = async (user: CreatedUser) =>
    (await s.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)))[0];

  it('on-session with a return URL; the challenge passed, the return cancels once', async () => {
    const user = await stripeMember();
    const intent = await challenged(user);
    const create = stripe.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(create.params.return_url).toBe(
      `${s.deps.config.publicUrl}/dashboard?cancel=authenticated`,
    );
    expect(create.params.off_session).toBeUndefined();
    stripe.authenticate(intent, true);
    expect((await cancel(user)).json()).toEqual(CANCELLED);
    expect((await cancel(user)).json()).toEqual(CANCELLED);
    expect((await membershipOf(user)).status).toBe('cancelled');
    expect(stripe.intents.filter((i) => i.id === intent)).toHaveLength(1);
  });

  it('the challenge failed: Stripe’s message, nothing charged, the membership as it was', async () => {
    const user = await stripeMember();
    const intent = await challenged(user);
    stripe.authenticate(intent, false);
    const res = await cancel(user);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    expect(await membershipOf(user)).toMatchObject({ status: 'active', chargebackFailures: 1 });
    const customer = stripe.intents.find((i) => i.id === intent)!.customer;
    const paid = stripe.intents.filter((i) => i.customer === customer && i.amount === 2000);
    expect(paid.map((i) => i.status)).toEqual(['requires_payment_method']);
  });

  it('abandoned: after the hold the repair cancels the PaymentIntent at Stripe; nothing charged', async () => {
    const user = await stripeMember();
    const intent = await challenged(user);
    const later = new Date(Date.now() + AUTHENTICATION_HOLD_MS + 60_000);
    await releaseStaleChallenges({ db: s.db, payments: s.deps.payments, ...mailDeps(s) }, later);
    expect(stripe.calls()).toContain(`POST /v1/payment_intents/${intent}/cancel`);
    expect(stripe.intents.find((i) => i.id === intent)?.status).toBe('canceled');
    expect(await membershipOf(user)).toMatchObject({ status: 'active' });
    const next = await cancel(user);
    expect(next.statusCode).toBe(400);
    expect((await cancel(user)).json()).toMatchObject({ status: 'requires_action' });
  });
});
