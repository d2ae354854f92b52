import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_DECLINED } from '@paddock/contract/cards';
import { createTestApp, type TestApp } from '../../test/test-app';
import { answerChallenge, tokenizeCard } from '../../test/cards';
import { LocalPaymentProvider } from './local-provider';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_REQUIRED,
  CardError,
  type ChargeResult,
} from './provider';

// Stripe's 3-D Secure test cards on the local provider, each at setup, on-session and
// off-session, as Stripe's test mode answers them (decision 0085).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://paddock.example' });
});
afterAll(() => t.close());

const local = () => t.deps.payments as LocalPaymentProvider;
const RETURN = 'https://paddock.example/account';
let keys = 0;

async function setup(number: string) {
  return local().setupCard({
    token: await tokenizeCard(t, number),
    email: 'driver@example.com',
    name: 'Driver',
    customerRef: null,
    reference: 'user-1',
    returnUrl: RETURN,
  });
}

/** A saved card, its challenge (if any) passed. */
async function savedCard(number: string) {
  const result = await setup(number);
  if (result.status === 'succeeded') return result.card;
  await answerChallenge(t, result.action.challengeUrl!, 'complete');
  return (await local().finishSetup(result.action.intentRef)).card;
}

const charge = (
  card: { customerRef: string; paymentMethodRef: string },
  onSession: boolean,
  key = `k-${++keys}`,
) =>
  local().charge({
    customerRef: card.customerRef,
    paymentMethodRef: card.paymentMethodRef,
    amountCents: 2500,
    currency: 'GBP',
    description: 'Booking',
    idempotencyKey: key,
    ...(onSession ? { onSession: { returnUrl: 'https://paddock.example/checkouts/1/x' } } : {}),
  });

const actionOf = (result: ChargeResult) => {
  if (result.ok || !result.action) throw new Error(`no challenge: ${JSON.stringify(result)}`);
  return result.action;
};

describe('4242 4242 4242 4242: never asks', () => {
  it('saves at once and charges on- and off-session', async () => {
    const result = await setup('4242424242424242');
    expect(result.status).toBe('succeeded');
    const card = await savedCard('4242424242424242');
    expect(await charge(card, true)).toMatchObject({ ok: true });
    expect(await charge(card, false)).toMatchObject({ ok: true });
  });
});

describe('4000 0027 6000 3184: always asks', () => {
  it('asks at setup; the card exists only once the challenge passes', async () => {
    const result = await setup('4000002760003184');
    if (result.status !== 'requires_action') throw new Error('expected a challenge');
    expect(result.action.challengeUrl).toBe(
      `https://paddock.example/api/payments/local/challenges/${result.action.intentRef}`,
    );
    await expect(local().finishSetup(result.action.intentRef)).rejects.toThrow(CardError);
    const back = await answerChallenge(t, result.action.challengeUrl!, 'complete');
    expect(back).toBe(`${RETURN}?setup_intent=${result.action.intentRef}`);
    const done = await local().finishSetup(result.action.intentRef);
    expect(done).toMatchObject({ reference: 'user-1', card: { last4: '3184', brand: 'Visa' } });
  });

  it('asks on-session; the same key answers the passed challenge with one charge', async () => {
    const card = await savedCard('4000002760003184');
    const first = await charge(card, true, 'k-3184-on');
    const action = actionOf(first);
    // Asked again before the challenge: the same challenge, nothing charged.
    expect(actionOf(await charge(card, true, 'k-3184-on')).intentRef).toBe(action.intentRef);
    expect(await local().receipt(action.intentRef)).toBeNull();
    await answerChallenge(t, action.challengeUrl!, 'complete');
    const paid = await charge(card, true, 'k-3184-on');
    expect(paid).toMatchObject({ ok: true, chargeRef: action.intentRef });
    // A second answer to the page changes nothing.
    await answerChallenge(t, action.challengeUrl!, 'fail');
    expect(await charge(card, true, 'k-3184-on')).toMatchObject({ ok: true });
  });

  it('off-session answers authentication_required, and the customer can authenticate it later', async () => {
    const card = await savedCard('4000002760003184');
    const result = await charge(card, false, 'k-3184-off');
    expect(result).toMatchObject({ ok: false, code: AUTHENTICATION_REQUIRED });
    const later = actionOf(await charge(card, true, 'k-3184-off'));
    await answerChallenge(t, later.challengeUrl!, 'complete');
    expect(await charge(card, false, 'k-3184-off')).toMatchObject({ ok: true });
  });

  it('a failed challenge fails the setup and the charge, with Stripe’s message', async () => {
    const result = await setup('4000002760003184');
    if (result.status !== 'requires_action') throw new Error('expected a challenge');
    await answerChallenge(t, result.action.challengeUrl!, 'fail');
    await expect(local().finishSetup(result.action.intentRef)).rejects.toThrow(
      AUTHENTICATION_FAILED_MESSAGE,
    );
    const card = await savedCard('4000002760003184');
    const action = actionOf(await charge(card, true, 'k-3184-fail'));
    await answerChallenge(t, action.challengeUrl!, 'fail');
    expect(await charge(card, true, 'k-3184-fail')).toEqual({
      ok: false,
      message: AUTHENTICATION_FAILED_MESSAGE,
      chargeRef: action.intentRef,
    });
  });
});

describe('4000 0025 0000 3155: asks when saved only', () => {
  it('asks at setup, then charges on- and off-session without asking', async () => {
    const result = await setup('4000002500003155');
    expect(result.status).toBe('requires_action');
    const card = await savedCard('4000002500003155');
    expect(await charge(card, true)).toMatchObject({ ok: true });
    expect(await charge(card, false)).toMatchObject({ ok: true });
  });
});

describe('4000 0084 0000 1629: declined after authentication', () => {
  it('asks at setup and saves; a charge asks, then is declined once authenticated', async () => {
    expect((await setup('4000008400001629')).status).toBe('requires_action');
    const card = await savedCard('4000008400001629');
    const action = actionOf(await charge(card, true, 'k-1629-on'));
    await answerChallenge(t, action.challengeUrl!, 'complete');
    expect(await charge(card, true, 'k-1629-on')).toMatchObject({
      ok: false,
      message: CARD_DECLINED,
    });
    expect(await charge(card, false)).toMatchObject({ ok: false, code: AUTHENTICATION_REQUIRED });
  });
});

describe('4000 0000 0000 0002: declined', () => {
  it('is refused at setup: nothing to charge on- or off-session', async () => {
    await expect(setup('4000000000000002')).rejects.toThrow(CARD_DECLINED);
  });
});

describe('the challenge page', () => {
  it('shows the payment with two buttons, and answers once', async () => {
    const card = await savedCard('4000002760003184');
    const action = actionOf(await charge(card, true));
    const page = await t.app.inject({ method: 'GET', url: new URL(action.challengeUrl!).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('£25.00');
    expect(page.body).toContain('Complete authentication');
    expect(page.body).toContain('Fail authentication');
    const back = await answerChallenge(t, action.challengeUrl!, 'complete');
    expect(back).toBe(`https://paddock.example/checkouts/1/x?payment_intent=${action.intentRef}`);
    const after = await t.app.inject({
      method: 'GET',
      url: new URL(action.challengeUrl!).pathname,
    });
    expect(after.body).not.toContain('Complete authentication');
    expect(after.body).toContain('already answered');
  });

  it('answers 404 for an unknown intent and 400 for a body that is not an outcome', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/payments/local/challenges/ch_nothing',
    });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/challenges/ch_nothing',
      headers: { 'content-type': 'text/plain' },
      payload: 'outcome=maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ outcome: ['Choose complete or fail.'] });
  });
});
