import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { clubMemberships } from '../../db/schema/club';
import { outboxMessages } from '../../db/schema/content';
import { charges, localCharges } from '../../db/schema/payments';
import { creditBalance } from '../../plugins/club-membership';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_REQUIRED_MESSAGE,
} from '../../plugins/payments/provider';
import { userPost } from '../../test/requests';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clubContext } from '../../test/club-context';
import { createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { answerLost } from '../../test/lost-answer';
import { completeEnrolment, settleEnrolment, type ClubContext } from './club.service';

// Joining the club with a card whose bank asks for 3-D Secure (decision 0095): the membership
// waits (pending, nothing charged, no credits) and is finished exactly once by whoever asks
// first once the challenge ended: the web's return (credits_enroll again), the webhook
// (settleEnrolment, what `payment_intent.succeeded` calls) or a retry.

let t: TestApp;
let ctx: ClubContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = clubContext(t);
});
afterAll(() => t.close());

const post = userPost(() => t);
const complete = (user: CreatedUser, id: number) =>
  post(user, `/api/users/me/subscriptions/${id}/complete`);
const enroll = (user: CreatedUser, who: string | number = 'me') =>
  post(user, `/api/users/${who}/charges/credits_enroll`, { credits_amount: 1000 });

/** A customer whose card always asks (4000 0027 6000 3184), saved through its challenge. */
async function customer(number = '4000002760003184') {
  const user = await createUser(t);
  await saveTestCard(t, user, number);
  return user;
}

/** Joins and expects the challenge; answers the membership and the challenge page. */
async function awaiting(user: CreatedUser) {
  const res = await enroll(user);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ status: 'requires_action', client_secret: null });
  expect(res.json().challenge_url).toMatch(/\/api\/payments\/local\/challenges\/ch_/);
  const [m] = await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id));
  return { id: m.id, url: res.json().challenge_url as string };
}

async function state(user: CreatedUser, id: number) {
  const memberships = await t.db
    .select()
    .from(clubMemberships)
    .where(eq(clubMemberships.userId, user.id));
  const recorded = await t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, user.id), eq(charges.kind, 'club')));
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:club-${id}-%`));
  const welcome = await t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, user.email), like(outboxMessages.subject, 'Welcome%')));
  return {
    memberships,
    recorded,
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    credits: await creditBalance(t.db, user.id),
    welcome,
  };
}

async function expectJoinedOnce(user: CreatedUser, id: number) {
  const s = await state(user, id);
  expect(s.memberships).toMatchObject([{ id, status: 'active', cyclesPaid: 1 }]);
  expect(s.recorded).toMatchObject([{ errors: '' }]);
  expect(s.succeeded).toHaveLength(1);
  expect(s.credits).toBe(1000);
  expect(s.welcome).toHaveLength(1);
}

describe('joining the club with a card that asks for 3-D Secure', () => {
  it('waits pending with nothing charged and no credits until the challenge is answered', async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    const s = await state(user, id);
    expect(s.memberships).toMatchObject([{ status: 'pending' }]);
    expect(s.recorded).toEqual([]);
    expect(s.succeeded).toEqual([]);
    expect(s.credits).toBe(0);
    const back = await answerChallenge(t, url, 'complete');
    expect(back).toMatch(new RegExp(`/subscriptions/${id}/authenticated\\?payment_intent=ch_`));
  });

  it("the web's return first, then the webhook: joined once", async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const res = await complete(user, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ credits_balance: 1000, subscription: { id } });
    expect(await settleEnrolment(ctx, id)).toBeNull();
    await expectJoinedOnce(user, id);
  });

  it("the webhook first, then the web's return: joined once, the same answer", async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    const settled = await settleEnrolment(ctx, id);
    expect(settled).toMatchObject({ credits_balance: 1000 });
    const res = await complete(user, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(settled);
    await expectJoinedOnce(user, id);
  });

  it('a retry before the challenge, then return, webhook and retry at once: joined once', async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    expect((await awaiting(user)).url).toBe(url);
    await answerChallenge(t, url, 'complete');
    const [web, hook, retry] = await Promise.all([
      complete(user, id),
      settleEnrolment(ctx, id),
      complete(user, id),
    ]);
    expect(web.statusCode).toBe(200);
    expect(retry.json()).toEqual(web.json());
    if (hook) expect(hook).toEqual(web.json());
    await expectJoinedOnce(user, id);
  });

  it('a failed challenge: nothing charged, no membership, one message', async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    await answerChallenge(t, url, 'fail');
    const res = await complete(user, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    // The webhook changes nothing; the return again answers the same message.
    expect(await settleEnrolment(ctx, id)).toBeNull();
    expect((await complete(user, id)).json()).toEqual(res.json());
    const s = await state(user, id);
    expect(s.memberships).toEqual([]);
    expect(s.succeeded).toEqual([]);
    expect(s.credits).toBe(0);
    expect(s.welcome).toEqual([]);
  });

  it("the bank's success lost before the finish: not a member yet, the next ask finishes it once", async () => {
    const user = await customer();
    const { id, url } = await awaiting(user);
    await answerChallenge(t, url, 'complete');
    // The worst moment: the money taken (and recorded), the membership not finished.
    const lossy = answerLost(t.deps.payments);
    await expect(completeEnrolment({ ...ctx, payments: lossy }, user.id, id)).rejects.toThrow(
      'connection reset',
    );
    const s = await state(user, id);
    expect(s.memberships).toMatchObject([{ status: 'pending' }]);
    expect(s.credits).toBe(0);
    expect(s.succeeded).toHaveLength(1);
    expect(await settleEnrolment(ctx, id)).toMatchObject({ credits_balance: 1000 });
    expect((await complete(user, id)).statusCode).toBe(200);
    await expectJoinedOnce(user, id);
  });

  it("is the member's own: another customer, or no membership, is a 404", async () => {
    const user = await customer();
    const { id } = await awaiting(user);
    expect((await complete(await createUser(t), id)).statusCode).toBe(404);
    expect((await complete(user, 2_000_000_000)).statusCode).toBe(404);
  });

  it('staff enrolling the customer are not the cardholder: refused with the bank’s reason', async () => {
    const user = await customer();
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const res = await enroll(staff, user.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [AUTHENTICATION_REQUIRED_MESSAGE] });
  });
});
