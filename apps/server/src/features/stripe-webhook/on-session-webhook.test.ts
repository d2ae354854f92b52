import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { voucherPurchases, vouchers } from '../../db/schema/booking';
import { clubMemberships } from '../../db/schema/club';
import { outboxMessages } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { creditBalance } from '../../plugins/club-membership';
import { AUTHENTICATION_FAILED_MESSAGE } from '../../plugins/payments/provider';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { signedDelivery, stripeEvent } from '../../test/signed-events';

// A voucher purchase and a club enrolment whose bank asked for 3-D Secure, finished through
// Stripe's webhook (decisions 0084, 0095): events signed with the SDK's own test-header helper,
// posted to POST /api/payments/stripe/webhook, Stripe answered by the stand-in. Whatever order
// the web's return, the webhook and a retry arrive in: one charge, one voucher or membership.

const SECRET = 'whsec_test_on_session';
const stripe = new StripeStandIn();
let t: TestApp;
let hook: ReturnType<typeof signedDelivery>;
beforeAll(async () => {
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_paddock',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_paddock',
    STRIPE_WEBHOOK_SECRET: SECRET,
    ...(await stripe.start()),
  });
  hook = signedDelivery(t, SECRET);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const post = (user: CreatedUser, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

/** A customer whose card (Stripe's authentication-required card) was saved through its challenge. */
async function asking() {
  const user = await createUser(t);
  const res = await post(user, '/api/users/me/card', { token: 'tok_authenticationRequired' });
  stripe.authenticate(res.json().setup_intent, true);
  expect(
    (await post(user, '/api/users/me/card', { setup_intent: res.json().setup_intent })).statusCode,
  ).toBe(200);
  return user;
}

/** The challenge answered at the bank, then Stripe's event for the intent as it now is. */
async function answered(intentId: string, passed: boolean) {
  stripe.authenticate(intentId, passed);
  const intent = stripe.intents.find((i) => i.id === intentId)!;
  return () =>
    webhook(passed ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', intent);
}

async function webhook(type: string, intent: object) {
  const ev = stripeEvent(type, intent);
  const res = await hook.deliver(ev);
  expect(res.statusCode).toBe(200);
  await hook.handled(ev.id);
}

const succeededIntents = (key: string) =>
  stripe.intents.filter(
    (i) =>
      i.status === 'succeeded' &&
      String((i.metadata as { paddock_key?: string } | undefined)?.paddock_key).endsWith(`:${key}`),
  );

type Order = 'return, webhook, retry' | 'webhook, return, retry' | 'all at once';
const ORDERS: Order[] = ['return, webhook, retry', 'webhook, return, retry', 'all at once'];

/**
 * Runs the three arrivals in `order`; answers the web's return. `finishedByHook` checks, when the
 * webhook came first, that it alone finished the purchase or enrolment.
 */
async function arrive(
  order: Order,
  ret: () => Promise<{ statusCode: number; json: () => unknown }>,
  hookNow: () => Promise<void>,
  finishedByHook: () => Promise<void>,
) {
  if (order === 'return, webhook, retry') {
    const web = await ret();
    await hookNow();
    await ret();
    return web;
  }
  if (order === 'webhook, return, retry') {
    await hookNow();
    await finishedByHook();
    const web = await ret();
    await ret();
    return web;
  }
  const [web] = await Promise.all([ret(), hookNow(), ret()]);
  return web;
}

describe('a voucher purchase finished through the signed webhook', () => {
  async function awaiting(user: CreatedUser) {
    const res = await post(user, '/api/users/me/vouchers/purchase', {
      amount_cents: 2500,
      email_to: `friend-${user.id}@example.com`,
      email_from_name: 'Sam',
    });
    expect(res.json()).toMatchObject({
      status: 'requires_action',
      client_secret: expect.any(String),
    });
    const [row] = await t.db
      .select()
      .from(voucherPurchases)
      .where(eq(voucherPurchases.id, res.json().purchase));
    return { row, intent: stripe.intents.at(-1)!.id as string };
  }

  for (const order of ORDERS)
    it(`${order}: one charge, one voucher, one mail to the friend`, async () => {
      const user = await asking();
      const { row, intent } = await awaiting(user);
      const hookNow = await answered(intent, true);
      const web = await arrive(
        order,
        () => post(user, `/api/users/me/vouchers/purchases/${row.id}/complete`),
        hookNow,
        async () =>
          expect(
            await t.db.select().from(vouchers).where(eq(vouchers.code, row.code)),
          ).toHaveLength(1),
      );
      expect(web.statusCode).toBe(200);
      expect(web.json()).toMatchObject({ code: row.code, amount_cents: 2500 });
      expect(succeededIntents(`voucher-${row.code}`)).toHaveLength(1);
      expect(await t.db.select().from(vouchers).where(eq(vouchers.code, row.code))).toHaveLength(1);
      const recorded = await t.db
        .select()
        .from(charges)
        .where(eq(charges.idempotencyKey, `voucher-${row.code}`));
      expect(recorded).toMatchObject([{ errors: '', amountCents: 2500 }]);
      const mails = await t.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.to, `friend-${user.id}@example.com`));
      expect(mails).toHaveLength(1);
    });

  it('a failed challenge reported by the webhook: no voucher, nothing charged, one message', async () => {
    const user = await asking();
    const { row, intent } = await awaiting(user);
    await (
      await answered(intent, false)
    )();
    const [after] = await t.db
      .select()
      .from(voucherPurchases)
      .where(eq(voucherPurchases.id, row.id));
    expect(after.status).toBe('failed');
    const web = await post(user, `/api/users/me/vouchers/purchases/${row.id}/complete`);
    expect(web.statusCode).toBe(400);
    expect(web.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    expect(await t.db.select().from(vouchers).where(eq(vouchers.code, row.code))).toEqual([]);
    expect(succeededIntents(`voucher-${row.code}`)).toEqual([]);
  });
});

describe('a club enrolment finished through the signed webhook', () => {
  async function awaiting(user: CreatedUser) {
    const res = await post(user, '/api/users/me/charges/credits_enroll', { credits_amount: 1000 });
    expect(res.json()).toMatchObject({
      status: 'requires_action',
      client_secret: expect.any(String),
    });
    const [m] = await t.db
      .select()
      .from(clubMemberships)
      .where(eq(clubMemberships.userId, user.id));
    return { id: m.id, intent: stripe.intents.at(-1)!.id as string };
  }

  for (const order of ORDERS)
    it(`${order}: one charge, one membership, one welcome`, async () => {
      const user = await asking();
      const { id, intent } = await awaiting(user);
      const hookNow = await answered(intent, true);
      const web = await arrive(
        order,
        () => post(user, `/api/users/me/subscriptions/${id}/complete`),
        hookNow,
        async () => expect(await creditBalance(t.db, user.id)).toBe(1000),
      );
      expect(web.statusCode).toBe(200);
      expect(web.json()).toMatchObject({ credits_balance: 1000, subscription: { id } });
      const paid = stripe.intents.filter(
        (i) =>
          i.status === 'succeeded' &&
          String((i.metadata as { paddock_key?: string } | undefined)?.paddock_key).includes(
            `:club-${id}-`,
          ),
      );
      expect(paid).toHaveLength(1);
      const memberships = await t.db
        .select()
        .from(clubMemberships)
        .where(eq(clubMemberships.userId, user.id));
      expect(memberships).toMatchObject([{ id, status: 'active', cyclesPaid: 1 }]);
      expect(await creditBalance(t.db, user.id)).toBe(1000);
      const recorded = await t.db
        .select()
        .from(charges)
        .where(and(eq(charges.userId, user.id), eq(charges.kind, 'club')));
      expect(recorded).toMatchObject([{ errors: '' }]);
      const welcome = await t.db
        .select()
        .from(outboxMessages)
        .where(and(eq(outboxMessages.to, user.email), like(outboxMessages.subject, 'Welcome%')));
      expect(welcome).toHaveLength(1);
    });

  it('a failed challenge reported by the webhook: no membership, no credits, one message', async () => {
    const user = await asking();
    const { id, intent } = await awaiting(user);
    await (
      await answered(intent, false)
    )();
    expect(
      await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)),
    ).toEqual([]);
    const web = await post(user, `/api/users/me/subscriptions/${id}/complete`);
    expect(web.statusCode).toBe(400);
    expect(web.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    expect(await creditBalance(t.db, user.id)).toBe(0);
  });
});
