import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { createVenue, futureDate } from '../../test/booking-factories';
import { chargeSavedCard } from './charge-card';
import {
  AUTHENTICATION_EXPIRED_MESSAGE,
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_PENDING_MESSAGE,
  AUTHENTICATION_REQUIRED_MESSAGE,
} from './provider';

// 3-D Secure through the official SDK against a stand-in answering as Stripe's API does
// (decision 0085): SetupIntents that ask, on-session PaymentIntents that ask, off-session
// `authentication_required`, and a key replayed after the challenge read as the intent is now.

const stripe = new StripeStandIn();
const requests = stripe.requests;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_paddock',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_paddock',
    ...(await stripe.start()),
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});
beforeEach(() => {
  requests.length = 0;
});

const card = (user: CreatedUser, payload: object, method: 'POST' | 'GET' = 'POST') =>
  t.app.inject({ method, url: '/api/users/me/card', headers: bearer(user.token), payload });

/** A user whose card (Stripe's authentication-required card) was saved through its challenge. */
async function savedThreeDs() {
  const user = await createUser(t);
  const res = await card(user, { token: 'tok_authenticationRequired' });
  stripe.authenticate(res.json().setup_intent, true);
  expect((await card(user, { setup_intent: res.json().setup_intent })).statusCode).toBe(200);
  requests.length = 0;
  return user;
}

const charge = (user: CreatedUser, key: string, onSession: boolean) =>
  chargeSavedCard(
    t.db,
    t.deps.payments,
    {
      userId: user.id,
      amountCents: 3000,
      currency: 'GBP',
      notes: 'Booking',
      idempotencyKey: key,
      kind: 'booking',
    },
    onSession ? { onSession: { returnUrl: 'https://paddock.example/back' } } : {},
  );

describe('saving a card whose bank asks for 3-D Secure', () => {
  it('answers the SetupIntent’s client secret, and saves the card only once it succeeded', async () => {
    const user = await createUser(t);
    const res = await card(user, { token: 'tok_authenticationRequired' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'requires_action',
      setup_intent: expect.stringMatching(/^seti_/),
      client_secret: expect.stringMatching(/^seti_\d+_secret_/),
      challenge_url: null,
    });
    const setup = res.json().setup_intent;
    expect(requests.find((r) => r.path === '/v1/setup_intents')?.params.usage).toBe('off_session');
    expect((await card(user, {}, 'GET')).json()).toEqual({});
    // Sent back before the challenge is over: nothing saved, the customer is told.
    const early = await card(user, { setup_intent: setup });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ non_field_errors: [AUTHENTICATION_PENDING_MESSAGE] });
    // Someone else cannot take it over.
    const other = await createUser(t);
    stripe.authenticate(setup, true);
    const stolen = await card(other, { setup_intent: setup });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual({ setup_intent: ['No such card setup.'] });
    const done = await card(user, { setup_intent: setup });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ brand: 'Visa', last4: '3184' });
    expect((await card(user, {}, 'GET')).json()).toMatchObject({ last4: '3184' });
  });

  it('a failed challenge saves nothing and answers Stripe’s message', async () => {
    const user = await createUser(t);
    const res = await card(user, { token: 'tok_authenticationRequired' });
    stripe.authenticate(res.json().setup_intent, false);
    const done = await card(user, { setup_intent: res.json().setup_intent });
    expect(done.statusCode).toBe(400);
    expect(done.json()).toEqual({ non_field_errors: [AUTHENTICATION_FAILED_MESSAGE] });
    expect((await card(user, {}, 'GET')).json()).toEqual({});
  });

  it('comes back to the page the card was entered on, never to another site', async () => {
    const user = await createUser(t);
    const ours = `${t.deps.config.publicUrl}/reservations/all`;
    await card(user, { token: 'tok_authenticationRequired', return_url: ours });
    expect(requests.find((r) => r.path === '/v1/setup_intents')?.params.return_url).toBe(ours);
    requests.length = 0;
    await card(user, { token: 'tok_authenticationRequired', return_url: 'https://evil.example/' });
    expect(requests.find((r) => r.path === '/v1/setup_intents')?.params.return_url).toBe(
      `${t.deps.config.publicUrl}/dashboard`,
    );
  });

  it('refuses a body with both or neither of token and setup_intent', async () => {
    const user = await createUser(t);
    expect((await card(user, {})).json()).toEqual({ token: ['This field is required.'] });
    expect((await card(user, { token: 'tok_visa', setup_intent: 'seti_1' })).statusCode).toBe(400);
  });
});

describe('charging a card whose bank asks for 3-D Secure', () => {
  it('on-session: requires_action with the client secret; after the challenge the same key pays once', async () => {
    const user = await savedThreeDs();
    const first = await charge(user, 'k-on', true);
    expect(first).toMatchObject({
      ok: false,
      charge: null,
      action: { intentRef: expect.stringMatching(/^pi_/), clientSecret: expect.any(String) },
    });
    const [create] = requests;
    expect(create.params.return_url).toBe('https://paddock.example/back');
    expect(create.params.off_session).toBeUndefined();
    if (first.charge !== null) throw new Error('expected a challenge');
    stripe.authenticate(first.action.intentRef, true);
    requests.length = 0;
    const paid = await charge(user, 'k-on', true);
    expect(paid).toMatchObject({ ok: true, charge: { chargeRef: first.action.intentRef } });
    // Stripe replays the key's first answer (requires_action): the intent is read as it is now.
    expect(stripe.calls()).toEqual([
      'POST /v1/payment_intents',
      `GET /v1/payment_intents/${first.action.intentRef}`,
    ]);
    expect(stripe.intents.filter((i) => i.customer === create.params.customer)).toHaveLength(1);
    // Recorded: the same key answers without Stripe.
    requests.length = 0;
    expect((await charge(user, 'k-on', true)).ok).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('on-session, the challenge failed: declined with Stripe’s message, nothing paid', async () => {
    const user = await savedThreeDs();
    const first = await charge(user, 'k-fail', true);
    if (first.charge !== null) throw new Error('expected a challenge');
    stripe.authenticate(first.action.intentRef, false);
    expect(await charge(user, 'k-fail', true)).toMatchObject({
      ok: false,
      message: AUTHENTICATION_FAILED_MESSAGE,
      charge: { errors: AUTHENTICATION_FAILED_MESSAGE, chargeRef: first.action.intentRef },
    });
  });

  it('abandoned: cancelled at Stripe, then answered as expired', async () => {
    const user = await savedThreeDs();
    const first = await charge(user, 'k-gone', true);
    if (first.charge !== null) throw new Error('expected a challenge');
    await t.deps.payments.cancelAuthentication(first.action.intentRef);
    expect(requests.at(-1)).toMatchObject({
      path: `/v1/payment_intents/${first.action.intentRef}/cancel`,
      params: { cancellation_reason: 'abandoned' },
    });
    expect(await charge(user, 'k-gone', true)).toMatchObject({
      ok: false,
      message: AUTHENTICATION_EXPIRED_MESSAGE,
    });
  });

  it('off-session: authentication_required, recorded with the PaymentIntent to authenticate', async () => {
    const user = await savedThreeDs();
    const result = await charge(user, 'k-off', false);
    expect(requests[0].params.off_session).toBe('true');
    expect(result).toMatchObject({
      ok: false,
      message: AUTHENTICATION_REQUIRED_MESSAGE,
      charge: { errors: AUTHENTICATION_REQUIRED_MESSAGE, chargeRef: expect.stringMatching(/^pi_/) },
    });
  });
});

describe('a checkout with Stripe', () => {
  it('waits with the client secret, then the return finishes it paid', async () => {
    const venue = await createVenue(t, { seats: 1, costCents: 3000 });
    const user = await savedThreeDs();
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/reservations/checkouts/quote',
      headers: bearer(user.token),
      payload: {
        reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(5)}T18:00` }],
      },
    });
    const process = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/reservations/checkouts/${q.json().checkout_id}/process`,
        headers: bearer(user.token),
      });
    const waiting = await process();
    expect(waiting.json()).toMatchObject({
      status: 'awaiting_authentication',
      client_secret: expect.stringMatching(/^pi_\d+_secret_/),
      challenge_url: null,
    });
    const intent = stripe.intents.at(-1)!;
    expect(intent.metadata).toEqual({
      paddock_key: expect.stringMatching(new RegExp(`:checkout-${q.json().checkout_id}$`)),
    });
    stripe.authenticate(intent.id, true);
    const paid = await process();
    expect(paid.json()).toMatchObject({ status: 'paid', reservations: [{ paid: true }] });
  });
});
