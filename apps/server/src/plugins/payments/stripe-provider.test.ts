import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';
import { chargeSavedCard } from './charge-card';

/**
 * A stand-in for exactly the Stripe endpoints the provider calls, so the real SDK is exercised
 * end to end: paths, form-encoded parameters, the Idempotency-Key header and error bodies.
 */
type Recorded = {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey?: string;
  auth?: string;
};

const requests: Recorded[] = [];
const intentsByKey = new Map<string, object>();
const refundsByKey = new Map<string, object>();
let ids = 0;

const paymentMethod = (id: string, customer: string | null, last4 = '4242') => ({
  id,
  object: 'payment_method',
  type: 'card',
  customer,
  card: { brand: 'visa', last4, exp_month: 12, exp_year: 2034 },
  billing_details: { address: { postal_code: '94107' } },
});
const cardError = (message: string, extra: object = {}) => ({
  status: 402,
  body: { error: { type: 'card_error', code: 'card_declined', message, ...extra } },
});

function route(r: Recorded): { status: number; body: object } {
  const ok = (body: object) => ({ status: 200, body });
  let m: RegExpMatchArray | null;
  if (r.path === '/v1/customers')
    return ok({ id: `cus_${++ids}`, object: 'customer', email: r.params.email });
  if ((m = r.path.match(/^\/v1\/customers\/(\w+)$/))) return ok({ id: m[1], object: 'customer' });
  if (r.path === '/v1/payment_methods') {
    const token = r.params['card[token]'];
    if (token === 'tok_chargeDeclined') return cardError('Your card was declined.');
    // Like Stripe's tok_chargeCustomerFail: attaches, then every charge is declined.
    const id = token === 'tok_chargeCustomerFail' ? `pm_fail${++ids}` : `pm_${++ids}`;
    return ok(paymentMethod(id, null));
  }
  if ((m = r.path.match(/^\/v1\/payment_methods\/(\w+)\/attach$/)))
    return ok(paymentMethod(m[1], r.params.customer));
  if ((m = r.path.match(/^\/v1\/payment_methods\/(\w+)\/detach$/)))
    return ok(paymentMethod(m[1], null));
  if (r.path === '/v1/payment_intents') {
    const earlier = r.idempotencyKey && intentsByKey.get(r.idempotencyKey);
    if (earlier) return ok(earlier);
    const id = `pi_${++ids}`;
    if (r.params.payment_method.startsWith('pm_fail'))
      return cardError('Your card was declined.', {
        decline_code: 'generic_decline',
        payment_intent: { id, object: 'payment_intent', status: 'requires_payment_method' },
      });
    const intent = {
      id,
      object: 'payment_intent',
      status: 'succeeded',
      amount: Number(r.params.amount),
      latest_charge: {
        id: `ch_${ids}`,
        object: 'charge',
        receipt_url: `https://pay.stripe.com/receipts/${id}`,
      },
    };
    if (r.idempotencyKey) intentsByKey.set(r.idempotencyKey, intent);
    return ok(intent);
  }
  if (r.path === '/v1/refunds') {
    const earlier = r.idempotencyKey && refundsByKey.get(r.idempotencyKey);
    if (earlier) return ok(earlier);
    if (Number(r.params.amount) > 100_000)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            message: 'Refund amount ($1000.01) is greater than charge amount ($1000.00)',
          },
        },
      };
    const refund = {
      id: `re_${++ids}`,
      object: 'refund',
      amount: Number(r.params.amount),
      payment_intent: r.params.payment_intent,
      status: r.params.payment_intent === 'pi_refund_fails' ? 'failed' : 'pending',
      failure_reason:
        r.params.payment_intent === 'pi_refund_fails' ? 'expired_or_canceled_card' : null,
    };
    if (r.idempotencyKey) refundsByKey.set(r.idempotencyKey, refund);
    return ok(refund);
  }
  return {
    status: 404,
    body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL` } },
  };
}

let server: http.Server;
let t: TestApp;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0],
        params: Object.fromEntries(new URLSearchParams(raw)),
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        auth: req.headers.authorization,
      };
      requests.push(recorded);
      const { status, body } = route(recorded);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_paddock',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_paddock',
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String((server.address() as AddressInfo).port),
    STRIPE_API_PROTOCOL: 'http',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
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
const calls = () => requests.map((r) => `${r.method} ${r.path}`);

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

  it('saves a card: customer, PaymentMethod from the token, attach, default', async () => {
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
      expect.stringMatching(/^POST \/v1\/payment_methods\/pm_\d+\/attach$/),
      expect.stringMatching(/^POST \/v1\/customers\/cus_\d+$/),
    ]);
    const [customer, created, attach, update] = requests;
    expect(customer.auth).toBe('Bearer sk_test_paddock');
    expect(customer.params).toEqual({ email: user.email, name: 'Ayrton Senna' });
    expect(created.params).toEqual({ type: 'card', 'card[token]': 'tok_visa' });
    const customerId = attach.params.customer;
    expect(customerId).toMatch(/^cus_/);
    expect(update.path).toBe(`/v1/customers/${customerId}`);
    expect(update.params['invoice_settings[default_payment_method]']).toMatch(/^pm_/);
  });

  it('attaches a pm_ directly, reuses the customer and detaches the replaced card', async () => {
    const user = await createUser(t);
    await saveCard('tok_visa', user.token);
    const firstPm = requests[2].path.split('/')[3];
    requests.length = 0;
    expect((await saveCard('pm_card_mastercard', user.token)).statusCode).toBe(200);
    expect(calls()).toEqual([
      'POST /v1/payment_methods/pm_card_mastercard/attach',
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
    const pm = requests[2].path.split('/')[3];
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
      params: { payment_intent: 'pi_123', amount: '1250', reason: 'requested_by_customer' },
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
