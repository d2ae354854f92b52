import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { OUTSTANDING_PAID_MESSAGE } from '@paddock/contract/reservations';
import { charges, localCharges } from '../../db/schema/payments';
import { AUTHENTICATION_FAILED_MESSAGE } from '../../plugins/payments/provider';
import { userPost } from '../../test/requests';
import { createTestApp, mailDeps, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { answerLost } from '../../test/lost-answer';
import { sentMails } from '../../test/sent-mail';
import { createVenue, futureDate } from '../../test/booking-factories';
import { captureOutstanding, settleOutstanding, type CaptureContext } from './outstanding';

// Paying the outstanding balance with a card whose bank asks for 3-D Secure (decision 0099):
// the customer is present, so capture_outstanding answers the challenge with nothing paid; the
// web's return (the same call again), the webhook (settleOutstanding, what
// `payment_intent.succeeded` calls) or a retry finish it exactly once. A failed challenge
// charges nothing and leaves the balance owed.

let t: TestApp;
let ctx: CaptureContext;
let venue: Awaited<ReturnType<typeof createVenue>>;
const zone = 'America/Los_Angeles';
const day = futureDate(6, zone);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { name: 'Balance Lane', seats: 4, costCents: 4500 });
  ctx = {
    db: t.db,
    payments: t.deps.payments,
    mail: mailDeps(t),
  };
});
afterAll(() => t.close());

const post = userPost(() => t);
const capture = (user: CreatedUser) => post(user, '/api/users/me/charges/capture_outstanding');
const balance = async (user: CreatedUser) =>
  (
    await t.app.inject({ method: 'GET', url: '/api/users/me/balance', headers: bearer(user.token) })
  ).json().amount_cents as number;

let nextSeat = 0;
/**
 * A customer owing one declined booking ($45 + fees), then saving a card that asks
 * (4000 0027 6000 3184 unless told) through its setup challenge.
 */
async function owing(number = '4000002760003184') {
  const user = await createUser(t);
  await saveTestCard(t, user, '4000000000000341');
  const seat = venue.seats[nextSeat % 4].id;
  const slot = `${day}T${String(8 + Math.floor(nextSeat / 4)).padStart(2, '0')}:00`;
  nextSeat += 1;
  const q = (
    await post(user, '/api/reservations/checkouts/quote', {
      reservations: [{ calendar: seat, slot }],
    })
  ).json();
  const declined = await post(user, `/api/reservations/checkouts/${q.checkout_id}/process`);
  expect(declined.statusCode, declined.body).toBe(402);
  await saveTestCard(t, user, number);
  const owed = await balance(user);
  expect(owed).toBeGreaterThan(0);
  return { user, owed };
}

/** Presses pay and expects the challenge: nothing paid, nothing charged. */
async function challenged(user: CreatedUser, owed: number) {
  const res = await capture(user);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ status: 'requires_action', client_secret: null });
  const url = res.json().challenge_url as string;
  expect(url).toMatch(/\/api\/payments\/local\/challenges\/ch_/);
  expect(await balance(user)).toBe(owed);
  return url;
}

/** What the capture left: our Charge rows, the provider's charges, receipt mails. */
async function money(user: CreatedUser) {
  const recorded = await t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, user.id), like(charges.idempotencyKey, 'outstanding-%')));
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:outstanding-${user.id}-%`));
  const receipts = (await sentMails(t, user.email)).filter((m) =>
    /^Receipt: outstanding balance/.test(m.subject ?? ''),
  );
  return {
    recorded,
    key: recorded[0]?.idempotencyKey,
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    receipts,
  };
}

async function expectPaidOnce(user: CreatedUser, owed: number) {
  expect(await balance(user)).toBe(0);
  const m = await money(user);
  expect(m.recorded).toMatchObject([{ errors: '', amountCents: owed, kind: 'capture' }]);
  expect(m.succeeded).toHaveLength(1);
  expect(m.receipts).toHaveLength(1);
}

const paid = (owed: number) => ({ detail: OUTSTANDING_PAID_MESSAGE, amount_cents: owed });
const keyOf = async (user: CreatedUser) =>
  (
    await t.db
      .select({ key: localCharges.idempotencyKey })
      .from(localCharges)
      .where(like(localCharges.idempotencyKey, `%:outstanding-${user.id}-%`))
  )[0].key!.replace(/^.*:/, '');

describe('paying the outstanding balance with a card that asks for 3-D Secure', () => {
  it('answers the challenge, which returns to the dashboard; nothing paid meanwhile', async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    const m = await money(user);
    expect(m.recorded).toEqual([]);
    expect(m.succeeded).toEqual([]);
    const back = await answerChallenge(t, url, 'complete');
    expect(back).toMatch(/\/dashboard\?outstanding=authenticated&payment_intent=ch_/);
  });

  it("the web's return first, then the webhook: paid once", async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    await answerChallenge(t, url, 'complete');
    const res = await capture(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(paid(owed));
    expect(await settleOutstanding(ctx, (await money(user)).key!)).toEqual({
      detail: 'Nothing outstanding.',
      amount_cents: 0,
    });
    await expectPaidOnce(user, owed);
  });

  it("the webhook first, then the web's return: paid once", async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    await answerChallenge(t, url, 'complete');
    expect(await settleOutstanding(ctx, await keyOf(user))).toEqual(paid(owed));
    const res = await capture(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Nothing outstanding.', amount_cents: 0 });
    await expectPaidOnce(user, owed);
  });

  it('a retry before the challenge, then return, webhook and retry at once: paid once', async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    // A second press while the bank's page is open: the same challenge, nothing charged.
    expect((await capture(user)).json()).toMatchObject({
      status: 'requires_action',
      challenge_url: url,
    });
    const key = await keyOf(user);
    expect(await settleOutstanding(ctx, key)).toMatchObject({ status: 'requires_action' });
    await answerChallenge(t, url, 'complete');
    const [web, hook, retry] = await Promise.all([
      capture(user),
      settleOutstanding(ctx, key),
      capture(user),
    ]);
    const answers = [web.json(), hook, retry.json()];
    expect(answers.filter((a) => a?.amount_cents === owed)).toEqual([paid(owed)]);
    await expectPaidOnce(user, owed);
  });

  it('a failed challenge: nothing charged, the balance still owed, one message', async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    const key = await keyOf(user);
    await answerChallenge(t, url, 'fail');
    const res = await capture(user);
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toBe(AUTHENTICATION_FAILED_MESSAGE);
    // The webhook changes nothing; a retry answers the same message (a decline is final for
    // its key, as for any capture: a new card gets a new attempt).
    expect(await settleOutstanding(ctx, key)).toBeNull();
    expect((await capture(user)).json().detail).toBe(AUTHENTICATION_FAILED_MESSAGE);
    expect(await balance(user)).toBe(owed);
    const m = await money(user);
    expect(m.succeeded).toEqual([]);
    expect(m.receipts).toEqual([]);
    expect(m.recorded).toMatchObject([{ errors: AUTHENTICATION_FAILED_MESSAGE }]);
  });

  it("the bank's success lost before the commit: nothing marked paid, the next ask finishes it once", async () => {
    const { user, owed } = await owing();
    const url = await challenged(user, owed);
    await answerChallenge(t, url, 'complete');
    // The worst moment: the provider took the money, the answer never reached the transaction.
    const lossy = answerLost(t.deps.payments);
    await expect(captureOutstanding({ ...ctx, payments: lossy }, user.id)).rejects.toThrow(
      'connection reset',
    );
    expect(await balance(user)).toBe(owed);
    expect((await money(user)).recorded).toEqual([]);
    expect(await settleOutstanding(ctx, await keyOf(user))).toEqual(paid(owed));
    await expectPaidOnce(user, owed);
  });

  it('a webhook for a balance that changed since charges nothing new', async () => {
    const { user } = await owing();
    await challenged(user, await balance(user));
    expect(await settleOutstanding(ctx, `outstanding-${user.id}-000000000000000000000000`)).toEqual(
      { detail: 'Nothing outstanding.', amount_cents: 0 },
    );
    expect(await settleOutstanding(ctx, 'outstanding-x')).toBeNull();
    expect((await money(user)).succeeded).toEqual([]);
  });
});
