import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { chargeSavedCard } from './charge-card';

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

const saveCard = (token: string, userToken: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/me/card',
    headers: bearer(userToken),
    payload: { token },
  });
const calls = () => stripe.calls();

describe('StripePaymentProvider against a stand-in Stripe', () => {
  it('is chosen by STRIPE_SECRET_KEY and announced in the venue configuration', async () => {
    expect(t.deps.payments.kind).toBe('stripe');
    const config = (await t.app.inject({ method: 'OPTIONS', url: '/api/' })).json();
    expect(config).toMatchObject({
      payment_provider: 'stripe',
      stripe_publishable_key: 'pk_test_paddock',
    });
    expect(t.deps.payments.customerUrl('cus_123')).toBe(
      'https://dashboard.stripe.com/customers/cus_123',
    );
  });

  it('saves a card: customer, PaymentMethod from the token, off-session SetupIntent, default', async () => {
    const user = await createUser(t, { firstName: 'Ayrton', lastName: 'Senna' });
    const res = await saveCard('tok_visa', user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2034,
      postal_code: '94107',
    });
    expect(calls()).toEqual([
      'POST /v1/customers',
      'POST /v1/payment_methods',
      'POST /v1/setup_intents',
      expect.stringMatching(/^POST \/v1\/customers\/cus_\d+$/),
    ]);
    const [customer, created, setup, update] = requests;
    expect(customer.auth).toBe('Bearer sk_test_paddock');
    expect(customer.params).toEqual({ email: user.email, name: 'Ayrton Senna' });
    expect(created.params).toEqual({ type: 'card', 'card[token]': 'tok_visa' });
    expect(setup.params).toEqual({
      customer: setup.params.customer,
      payment_method: expect.stringMatching(/^pm_\d+$/),
      usage: 'off_session',
      confirm: 'true',
      return_url: `${t.deps.config.publicUrl}/dashboard`,
      'metadata[paddock_reference]': `user-${user.id}`,
      'expand[0]': 'payment_method',
    });
    const customerId = setup.params.customer;
    expect(customerId).toMatch(/^cus_/);
    expect(update.path).toBe(`/v1/customers/${customerId}`);
    expect(update.params['invoice_settings[default_payment_method]']).toMatch(/^pm_/);
  });

  it('sets up a pm_ directly, reuses the customer and detaches the replaced card', async () => {
    const user = await createUser(t);
    await saveCard('tok_visa', user.token);
    const firstPm = requests[2].params.payment_method;
    requests.length = 0;
    expect((await saveCard('pm_card_mastercard', user.token)).statusCode).toBe(200);
    expect(requests[0].params.payment_method).toBe('pm_card_mastercard');
    expect(calls()).toEqual([
      'POST /v1/setup_intents',
      expect.stringMatching(/^POST \/v1\/customers\/cus_\d+$/),
      `POST /v1/payment_methods/${firstPm}/detach`,
    ]);
    requests.length = 0;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/card',
      headers: bearer(user.token),
    });
    expect(removed.json()).toEqual({});
    expect(calls()).toEqual(['POST /v1/payment_methods/pm_card_mastercard/detach']);
  });

  it("answers 400 with Stripe's message when the card is declined", async () => {
    const user = await createUser(t);
    const res = await saveCard('tok_chargeDeclined', user.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
  });

  it('charges off-session with the idempotency key, once per key', async () => {
    const user = await createUser(t);
    await saveCard('tok_visa', user.token);
    const customerId = requests[2].params.customer;
    const pm = requests[2].params.payment_method;
    requests.length = 0;
    const input = {
      userId: user.id,
      amountCents: 4500,
      currency: 'USD',
      notes: 'Reservation: Rig 2',
      idempotencyKey: 'checkout:42',
      kind: 'booking' as const,
    };
    const result = await chargeSavedCard(t.db, t.deps.payments, input);
    expect(result.ok).toBe(true);
    expect(calls()).toEqual(['POST /v1/payment_intents']);
    const [intent] = requests;
    expect(intent.params).toEqual({
      amount: '4500',
      currency: 'usd',
      customer: customerId,
      payment_method: pm,
      off_session: 'true',
      confirm: 'true',
      description: 'Reservation: Rig 2',
      'metadata[paddock_key]': `${customerId}:checkout:42`,
      'expand[0]': 'latest_charge',
    });
    expect(intent.idempotencyKey).toBe(`${customerId}:checkout:42`);
    expect(result.charge).toMatchObject({
      chargeRef: expect.stringMatching(/^pi_/),
      receiptUrl: `https://pay.stripe.com/receipts/${result.charge.chargeRef}`,
      errors: '',
    });

    const again = await chargeSavedCard(t.db, t.deps.payments, input);
    expect(again.charge.id).toBe(result.charge.id);
    expect(requests).toHaveLength(1);
  });

  it('records a decline at charge time with the PaymentIntent reference', async () => {
    const user = await createUser(t);
    await saveCard('tok_chargeCustomerFail', user.token);
    requests.length = 0;
    const result = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: 2000,
      currency: 'USD',
      notes: 'Club',
      idempotencyKey: `club:${user.id}`,
      kind: 'club',
    });
    expect(result).toMatchObject({ ok: false, message: 'Your card was declined.' });
    expect(result.charge).toMatchObject({
      errors: 'Your card was declined.',
      chargeRef: expect.stringMatching(/^pi_/),
      receiptUrl: null,
    });
  });

  it('has no local tokenization or receipts while Stripe is configured', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/tokens',
      payload: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' },
    });
    expect(res.statusCode).toBe(404);
    const receipt = await t.app.inject({ method: 'GET', url: '/api/payments/local/receipts/ch_1' });
    expect(receipt.statusCode).toBe(404);
    expect(requests).toHaveLength(0);
  });
});

describe('Stripe refunds', () => {
  it('refunds part of a PaymentIntent once per idempotency key', async () => {
    const input = ['pi_123', 1250, 'cus_1:refund-7-0'] as const;
    const first = await t.deps.payments.refund(...input);
    expect(first).toEqual({ ok: true, refundRef: expect.stringMatching(/^re_/) });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/refunds',
      params: {
        payment_intent: 'pi_123',
        amount: '1250',
        reason: 'requested_by_customer',
        'metadata[paddock_key]': 'cus_1:refund-7-0',
      },
      idempotencyKey: 'cus_1:refund-7-0',
    });
    expect(await t.deps.payments.refund(...input)).toEqual(first);
  });

  it('answers a refused or failed refund as a result, not an exception', async () => {
    const over = await t.deps.payments.refund('pi_123', 100_001, 'k-over');
    expect(over).toEqual({
      ok: false,
      message: 'Refund amount ($1000.01) is greater than charge amount ($1000.00)',
      refundRef: null,
    });
    const failed = await t.deps.payments.refund('pi_refund_fails', 500, 'k-failed');
    expect(failed).toMatchObject({ ok: false, refundRef: expect.stringMatching(/^re_/) });
    await expect(t.deps.payments.refund('pi_123', 0, 'k-zero')).rejects.toThrow(RangeError);
  });
});
