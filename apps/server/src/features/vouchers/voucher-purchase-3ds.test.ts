import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { voucherPurchases, vouchers } from '../../db/schema/booking';
import { outboxMessages } from '../../db/schema/content';
import { charges, localCharges } from '../../db/schema/payments';
import { AUTHENTICATION_FAILED_MESSAGE } from '../../plugins/payments/provider';
import { userPost } from '../../test/requests';
import { createTestApp, mailDeps, type TestApp } from '../../test/test-app';
import { createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { answerLost } from '../../test/lost-answer';
import {
  completeVoucherPurchase,
  settleVoucherPurchase,
  type PurchaseContext,
} from './voucher-purchase';

// A gift voucher bought with a card whose bank asks for 3-D Secure (decision 0095): the purchase
// waits with nothing charged and no voucher, and is finished exactly once by whoever asks first
// once the challenge ended: the web's return (complete), the webhook (settleVoucherPurchase,
// what `payment_intent.succeeded` calls) or a retry. A failed challenge charges nothing.

let t: TestApp;
let ctx: PurchaseContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = {
    db: t.db,
    payments: t.deps.payments,
    ...mailDeps(t),
  };
});
afterAll(() => t.close());

const post = userPost(() => t);
const complete = (user: CreatedUser, id: number) =>
  post(user, `/api/users/me/vouchers/purchases/${id}/complete`);

/** A buyer with a card that always asks (4000 0027 6000 3184), saved through its challenge. */
async function buyer(number = '4000002760003184') {
  const user = await createUser(t);
  await saveTestCard(t, user, number);
  return user;
}

/** Buys a $25 gift and expects the challenge; answers the purchase and its page. */
async function awaiting(user: CreatedUser, friend = `friend-${user.id}@example.com`) {
  const res = await post(user, '/api/users/me/vouchers/purchase', {
    amount_cents: 2500,
    email_to: friend,
    email_from_name: 'Sam',
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({
    status: 'requires_action',
    purchase: expect.any(Number),
    client_secret: null,
  });
  expect(res.json().challenge_url).toMatch(/\/api\/payments\/local\/challenges\/ch_/);
  const [row] = await t.db
    .select()
    .from(voucherPurchases)
    .where(eq(voucherPurchases.id, res.json().purchase));
  return { id: row.id, code: row.code, url: res.json().challenge_url as string, friend };
}

/** What the purchase left: vouchers, our Charge rows, the provider's charges, mails. */
async function money(code: string, friend: string) {
  const made = await t.db.select().from(vouchers).where(eq(vouchers.code, code));
  const recorded = await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `voucher-${code}`));
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:voucher-${code}`));
  const mails = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, friend));
  return {
    made,
    recorded,
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    atProvider,
    mails,
  };
}

async function expectPaidOnce(code: string, friend: string) {
  const m = await money(code, friend);
  expect(m.made).toMatchObject([{ amountCents: 2500, balanceCents: 2500, source: 'purchase' }]);
  expect(m.atProvider).toHaveLength(1);
  expect(m.succeeded).toHaveLength(1);
  expect(m.recorded).toMatchObject([{ errors: '', amountCents: 2500, kind: 'voucher' }]);
  expect(m.mails).toHaveLength(1);
  const [row] = await t.db.select().from(voucherPurchases).where(eq(voucherPurchases.code, code));
  expect(row.status).toBe('paid');
}

const paidAnswer = (code: string, friend: string) => ({
  code,
  amount_cents: 2500,
  currency: 'USD',
  email_to: friend,
});

describe('a voucher purchase whose card asks for 3-D Secure', () => {
  it('waits with nothing charged and no voucher until the challenge is answered', async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    const m = await money(code, friend);
    expect(m.made).toEqual([]);
    expect(m.recorded).toEqual([]);
    expect(m.succeeded).toEqual([]);
    expect(m.mails).toEqual([]);
    // The challenge brings the buyer back to the web's finishing page.
    const back = await answerChallenge(t, url, 'complete');
    expect(back).toMatch(
      new RegExp(`/vouchers/purchases/${id}/authenticated\\?payment_intent=ch_`),
    );
  });

  it("the web's return first, then the webhook: paid once", async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const res = await complete(user, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(paidAnswer(code, friend));
    expect(await settleVoucherPurchase(ctx, code)).toBeNull();
    await expectPaidOnce(code, friend);
  });

  it("the webhook first, then the web's return: paid once, the same voucher", async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    expect(await settleVoucherPurchase(ctx, code)).toEqual(paidAnswer(code, friend));
    const res = await complete(user, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(paidAnswer(code, friend));
    await expectPaidOnce(code, friend);
  });

  it('a retry before the challenge, then return, webhook and retry at once: paid once', async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    // A reload while the bank's page is open: the same challenge, nothing charged.
    const early = await complete(user, id);
    expect(early.json()).toMatchObject({ status: 'requires_action', challenge_url: url });
    expect(await settleVoucherPurchase(ctx, code)).toMatchObject({ status: 'requires_action' });
    await answerChallenge(t, url, 'complete');
    const [web, hook, retry] = await Promise.all([
      complete(user, id),
      settleVoucherPurchase(ctx, code),
      complete(user, id),
    ]);
    expect(web.json()).toEqual(paidAnswer(code, friend));
    expect(retry.json()).toEqual(web.json());
    // The webhook found it finished already (null), or finished it with the same voucher.
    if (hook) expect(hook).toEqual(web.json());
    await expectPaidOnce(code, friend);
  });

  it('a failed challenge: nothing charged, no voucher, one message everywhere', async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    await answerChallenge(t, url, 'fail');
    const res = await complete(user, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    // The webhook and a retry change nothing; the retry answers the same message.
    expect(await settleVoucherPurchase(ctx, code)).toBeNull();
    expect((await complete(user, id)).json()).toEqual(res.json());
    const m = await money(code, friend);
    expect(m.made).toEqual([]);
    expect(m.succeeded).toEqual([]);
    expect(m.mails).toEqual([]);
    expect(m.recorded).toMatchObject([{ errors: AUTHENTICATION_FAILED_MESSAGE }]);
  });

  it('declined after authentication (4000 0084 0000 1629): nothing charged, no voucher', async () => {
    const user = await buyer('4000008400001629');
    const { id, code, url, friend } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const res = await complete(user, id);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
    const m = await money(code, friend);
    expect(m.made).toEqual([]);
    expect(m.succeeded).toEqual([]);
  });

  it("the bank's success lost before the commit: no voucher yet, the next ask finishes it once", async () => {
    const user = await buyer();
    const { id, code, url, friend } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    // The worst moment: the provider took the money, the answer never reached the transaction.
    const lossy = answerLost(t.deps.payments);
    await expect(completeVoucherPurchase({ ...ctx, payments: lossy }, id, user.id)).rejects.toThrow(
      'connection reset',
    );
    const m = await money(code, friend);
    expect(m.made).toEqual([]);
    expect(m.recorded).toEqual([]);
    expect(m.succeeded).toHaveLength(1);
    // The webhook (or the web's return) asks again with the same key: the same payment, once.
    expect(await settleVoucherPurchase(ctx, code)).toEqual(paidAnswer(code, friend));
    expect((await complete(user, id)).json()).toEqual(paidAnswer(code, friend));
    await expectPaidOnce(code, friend);
  });

  it("is the buyer's own: another customer, or no purchase, is a 404", async () => {
    const user = await buyer();
    const { id } = await awaiting(user);
    const other = await createUser(t);
    expect((await complete(other, id)).statusCode).toBe(404);
    expect((await complete(user, 2_000_000_000)).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/users/me/vouchers/purchases/${id}/complete`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
