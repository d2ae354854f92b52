import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYMENT_STOPPED_MESSAGE } from '@paddock/contract/refunds';
import { checkouts, reservations } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { type createVenue, futureDate, halfHourSlots } from '../../test/booking-factories';
import { cancelDuringChallengeVenue, waitingCheckout } from '../../test/waiting-checkout';
import { checkoutContext } from '../../test/checkout-context';
import { userPost } from '../../test/requests';
import { settleCheckout } from './finish-checkout';
import { repairCheckouts } from './money-repair';
import { REFUND_OWED_MESSAGE } from './refund-owed';

// Issue 40 through the real Stripe SDK against the stand-in: a cancel while the challenge is
// open cancels the PaymentIntent first (a late pass cannot take money); a payment that passed
// for seats cancelled another way is refunded in full, once, by the money repair.

const stripe = new StripeStandIn();
let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const nextSlot = halfHourSlots(futureDate(9, 'America/Los_Angeles'), 9);

beforeAll(async () => {
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_paddock',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_paddock',
    ...(await stripe.start()),
  });
  ({ venue, staff } = await cancelDuringChallengeVenue(t, 1));
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const post = userPost(() => t);

/** A customer whose saved card asks for 3-D Secure, waiting in the checkout's challenge. */
async function waiting() {
  const user = await createUser(t);
  const saved = await post(user, '/api/users/me/card', { token: 'tok_authenticationRequired' });
  stripe.authenticate(saved.json().setup_intent, true);
  await post(user, '/api/users/me/card', { setup_intent: saved.json().setup_intent });
  const { id, booking } = await waitingCheckout(t, user, [venue.seats[0].id], nextSlot());
  return { user, id, booking, intent: stripe.intents.at(-1)! };
}

const statusOf = async (id: number) =>
  (await t.db.select().from(checkouts).where(eq(checkouts.id, id)))[0].status;

describe('Stripe: a booking cancelled while its challenge is open', () => {
  it('cancels the PaymentIntent at Stripe first: the late pass is refused, nothing charged', async () => {
    const { user, id, booking, intent } = await waiting();
    const res = await post(user, `/api/reservations/${booking.id}/cancel`, {
      refund: 'policy',
      reason: '',
    });
    expect(res.json()).toEqual({ detail: PAYMENT_STOPPED_MESSAGE, refund: null });
    expect(intent.status).toBe('canceled');
    expect(() => stripe.authenticate(intent.id, true)).toThrow(/nothing to answer/);
    expect((await post(user, `/api/reservations/checkouts/${id}/process`)).statusCode).toBe(402);
    expect(await statusOf(id)).toBe('released');
    expect(stripe.intents.filter((i) => i.status === 'succeeded')).toHaveLength(0);
  });

  it('a pass for seats cancelled another way meanwhile: refunded in full at Stripe, once', async () => {
    const { user, id, booking, intent } = await waiting();
    // The planner refuses while the bank checks; a path that forgot the payment (here by hand in
    // the database) cancels the seat anyway.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/planner/delete',
      headers: bearer(staff.token),
      payload: { reservations: [booking.id] },
    });
    expect(refused.statusCode).toBe(400);
    await t.db
      .update(reservations)
      .set({ cancelledAt: new Date() })
      .where(eq(reservations.id, booking.id));
    stripe.authenticate(intent.id, true);
    const back = await post(user, `/api/reservations/checkouts/${id}/process`);
    expect(back.statusCode).toBe(409);
    expect(back.json().detail).toBe(REFUND_OWED_MESSAGE);
    // The webhook after the return: the same answer, nothing charged again.
    const ctx = checkoutContext(t);
    expect(await settleCheckout(ctx, id)).toBeNull();
    await repairCheckouts(ctx, { afterMs: 0 });
    await repairCheckouts(ctx, { afterMs: 0 });
    expect(await statusOf(id)).toBe('refunded');
    const given = stripe.refunds.filter((r) => r.payment_intent === intent.id);
    expect(given).toHaveLength(1);
    expect(given[0].amount).toBe(intent.amount);
  });
});
