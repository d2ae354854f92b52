import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, like } from 'drizzle-orm';
import { checkouts, reservations } from '../../db/schema/booking';
import { charges, localCharges } from '../../db/schema/payments';
import {
  AUTHENTICATION_EXPIRED_MESSAGE,
  AUTHENTICATION_FAILED_MESSAGE,
} from '../../plugins/payments/provider';
import { releasedDetail } from './release-checkout';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { createVenue, futureDate, halfHourSlots } from '../../test/booking-factories';
import { checkoutContext } from '../../test/checkout-context';
import { userPost } from '../../test/requests';
import { settleCheckout, type FinishContext } from './finish-checkout';
import { repairCheckouts, type RepairContext } from './money-repair';
import { AUTHENTICATION_HOLD_MS } from '../../plugins/payments/provider';

// A customer whose bank asks for 3-D Secure pays at the checkout (decision 0085): the checkout
// waits for the challenge and is finished exactly once by whoever comes first: the web's return
// (processing again), the webhook's `payment_intent.succeeded` (settleCheckout, its finishing
// path), a retry, or the money repair. Never two charges, never a booking without its charge.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let ctx: RepairContext & FinishContext;
const day = futureDate(8, 'America/Los_Angeles');
const nextSlot = halfHourSlots(day, 9);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 3000 });
  ctx = checkoutContext(t);
});
afterAll(() => t.close());

const post = userPost(() => t);

/** A customer with a 3-D Secure card (saved through its challenge) and a quoted seat. */
async function quoted(number = '4000002760003184') {
  const user = await createUser(t);
  await saveTestCard(t, user, number);
  const slot = nextSlot();
  const q = await post(user, '/api/reservations/checkouts/quote', {
    reservations: [{ calendar: venue.seats[0].id, slot }],
  });
  expect(q.statusCode).toBe(200);
  return { user, id: q.json().checkout_id as number, slot };
}

const processIt = (user: CreatedUser, id: number) =>
  post(user, `/api/reservations/checkouts/${id}/process`);

/** Processes and expects the challenge; answers its page's URL. */
async function awaiting(user: CreatedUser, id: number) {
  const res = await processIt(user, id);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    checkout_id: id,
    status: 'awaiting_authentication',
    client_secret: null,
  });
  expect(res.json().challenge_url).toMatch(/\/api\/payments\/local\/challenges\/ch_/);
  return res.json().challenge_url as string;
}

/** What was charged for the checkout: our Charge rows and the provider's succeeded charges. */
async function money(id: number) {
  const recorded = await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${id}`));
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:checkout-${id}`));
  const booked = await t.db.select().from(reservations).where(eq(reservations.checkoutId, id));
  const [checkout] = await t.db.select().from(checkouts).where(eq(checkouts.id, id));
  return {
    recorded,
    succeeded: atProvider.filter((c) => c.status === 'succeeded'),
    atProvider,
    booked,
    checkout,
  };
}

/** Paid exactly once, and every live booking of it paid by that one charge. */
async function expectPaidOnce(id: number) {
  const m = await money(id);
  expect(m.checkout.status).toBe('paid');
  expect(m.atProvider).toHaveLength(1);
  expect(m.succeeded).toHaveLength(1);
  expect(m.recorded).toHaveLength(1);
  expect(m.recorded[0].errors).toBe('');
  expect(m.booked).toHaveLength(1);
  expect(m.booked[0]).toMatchObject({ paid: true, chargeId: m.recorded[0].id, cancelledAt: null });
}

describe('a checkout whose card asks for 3-D Secure', () => {
  it('waits with the seat booked unpaid and nothing charged until the challenge is answered', async () => {
    const { user, id } = await quoted();
    const url = await awaiting(user, id);
    expect(url.startsWith(`${t.deps.config.publicUrl}/api/payments/local/challenges/`)).toBe(true);
    const m = await money(id);
    expect(m.checkout.status).toBe('awaiting_authentication');
    expect(m.recorded).toHaveLength(0);
    expect(m.succeeded).toHaveLength(0);
    expect(m.booked).toMatchObject([{ paid: false, cancelledAt: null }]);
    // The challenge brings the customer back to the web's finishing page.
    const back = await answerChallenge(t, url, 'complete');
    expect(back).toMatch(new RegExp(`/checkouts/${id}/authenticated\\?payment_intent=ch_`));
  });

  it("the web's return first, then the webhook: paid once", async () => {
    const { user, id } = await quoted();
    await answerChallenge(t, await awaiting(user, id), 'complete');
    const res = await processIt(user, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', reservations: [{ paid: true }] });
    expect(await settleCheckout(ctx, id)).toBeNull();
    await expectPaidOnce(id);
  });

  it("the webhook first, then the web's return: paid once, the same answer", async () => {
    const { user, id } = await quoted();
    await answerChallenge(t, await awaiting(user, id), 'complete');
    const settled = await settleCheckout(ctx, id);
    expect(settled?.finishedNow).toBe(true);
    const res = await processIt(user, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(settled?.result.body);
    await expectPaidOnce(id);
  });

  it('a retry before the challenge, then return and webhook at once: paid once', async () => {
    const { user, id } = await quoted();
    const url = await awaiting(user, id);
    // A double click or a reload while the bank's page is open: the same challenge, no charge.
    expect(await awaiting(user, id)).toBe(url);
    await answerChallenge(t, url, 'complete');
    const [web, hook, retry] = await Promise.all([
      processIt(user, id),
      settleCheckout(ctx, id),
      processIt(user, id),
    ]);
    expect(web.json().status).toBe('paid');
    expect(retry.json()).toEqual(web.json());
    // The webhook found it finished already (null), or finished it with the same answer.
    if (hook) expect(hook.result.body).toEqual(web.json());
    await expectPaidOnce(id);
  });

  it('a failed challenge: nothing charged, the seat released, one message everywhere', async () => {
    const { user, id, slot } = await quoted();
    await answerChallenge(t, await awaiting(user, id), 'fail');
    const res = await processIt(user, id);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      detail: releasedDetail(AUTHENTICATION_FAILED_MESSAGE),
      code: 'authentication_failed',
    });
    // The webhook and a retry answer the same, and change nothing.
    expect(await settleCheckout(ctx, id)).toBeNull();
    expect((await processIt(user, id)).json()).toEqual(res.json());
    const m = await money(id);
    expect(m.checkout.status).toBe('released');
    expect(m.succeeded).toHaveLength(0);
    expect(m.booked).toHaveLength(1);
    expect(m.booked[0].cancelledAt).not.toBeNull();
    // Not an outstanding balance: the seat is free for anyone.
    const live = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.userId, user.id), isNull(reservations.cancelledAt)));
    expect(live).toHaveLength(0);
    const other = await createUser(t);
    await saveTestCard(t, other);
    const q = await post(other, '/api/reservations/checkouts/quote', {
      reservations: [{ calendar: venue.seats[0].id, slot }],
    });
    expect(q.statusCode).toBe(200);
    expect((await processIt(other, q.json().checkout_id)).json().status).toBe('paid');
  });

  it('declined after authentication (4000 0084 0000 1629): nothing charged, seat released', async () => {
    const { user, id } = await quoted('4000008400001629');
    await answerChallenge(t, await awaiting(user, id), 'complete');
    const res = await processIt(user, id);
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toBe(
      'Your card was declined. Nothing was charged, and the seats were not kept.',
    );
    const m = await money(id);
    expect(m.succeeded).toHaveLength(0);
    expect(m.booked[0].cancelledAt).not.toBeNull();
  });

  it('a card that asked only when saved (4000 0025 0000 3155) pays at once', async () => {
    const { user, id } = await quoted('4000002500003155');
    const res = await processIt(user, id);
    expect(res.json()).toMatchObject({ status: 'paid' });
    await expectPaidOnce(id);
  });
});

describe('a challenge nobody answers', () => {
  it('the money repair releases the seat after the hold; a late answer charges nothing', async () => {
    const { user, id } = await quoted();
    const url = await awaiting(user, id);
    const later = new Date(Date.now() + AUTHENTICATION_HOLD_MS + 60_000);
    // Within the hold the repair leaves it waiting.
    await repairCheckouts(ctx, { afterMs: 0, now: new Date() });
    expect((await money(id)).checkout.status).toBe('awaiting_authentication');
    await repairCheckouts(ctx, { afterMs: 0, now: later });
    const res = await processIt(user, id);
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toBe(`${AUTHENTICATION_EXPIRED_MESSAGE} The seats were not kept.`);
    await answerChallenge(t, url, 'complete');
    const m = await money(id);
    expect(m.checkout.status).toBe('released');
    expect(m.succeeded).toHaveLength(0);
    expect(m.booked[0].cancelledAt).not.toBeNull();
  });

  it("passed: the web's return, the webhook and the repair at once: paid once, one answer", async () => {
    const { user, id } = await quoted();
    await answerChallenge(t, await awaiting(user, id), 'complete');
    const later = new Date(Date.now() + AUTHENTICATION_HOLD_MS + 60_000);
    const [web, hook, repair] = await Promise.all([
      processIt(user, id),
      settleCheckout(ctx, id),
      repairCheckouts(ctx, { afterMs: 0, now: later }),
    ]);
    expect(web.json().status).toBe('paid');
    // The webhook and the repair found it finished already, or finished it with that answer.
    if (hook) expect(hook.result.body).toEqual(web.json());
    expect(repair.finished).toBeLessThanOrEqual(1);
    await expectPaidOnce(id);
    expect((await processIt(user, id)).json()).toEqual(web.json());
  });

  it('passed, but the return and the webhook were lost: the repair finishes it once', async () => {
    const { user, id } = await quoted();
    await answerChallenge(t, await awaiting(user, id), 'complete');
    // The browser closed and the event never came: the intent succeeded, nobody finished.
    const later = new Date(Date.now() + AUTHENTICATION_HOLD_MS + 60_000);
    const [a, b] = await Promise.all([
      repairCheckouts(ctx, { afterMs: 0, now: later }),
      repairCheckouts(ctx, { afterMs: 0, now: later }),
    ]);
    expect(a.finished + b.finished).toBe(1);
    await expectPaidOnce(id);
    expect((await processIt(user, id)).json().status).toBe('paid');
  });
});
