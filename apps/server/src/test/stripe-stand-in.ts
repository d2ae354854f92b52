import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for exactly the Stripe endpoints the provider calls, so the real SDK is exercised
 * end to end: paths, form-encoded parameters and query strings, the Idempotency-Key header,
 * lists and error bodies. `forgetKeys()` plays Stripe's 24 hours passing: a key no longer
 * answers its first result; `dashboardRefund()` a refund made in the dashboard.
 */
export type Recorded = {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey?: string;
  auth?: string;
};

type Obj = Record<string, unknown> & { id: string };

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
/** `metadata[k]=v` form fields as Stripe stores them. */
const metadataOf = (params: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
  );
const list = (url: string, data: object[]) => ({
  status: 200,
  body: { object: 'list', url, has_more: false, data },
});

export class StripeStandIn {
  readonly requests: Recorded[] = [];
  readonly intents: Obj[] = [];
  readonly setups: Obj[] = [];
  readonly refunds: Obj[] = [];
  private readonly intentsByKey = new Map<string, Obj>();
  private readonly refundsByKey = new Map<string, Obj>();
  private ids = 0;
  private server: http.Server | null = null;

  async start(): Promise<{
    STRIPE_API_HOST: string;
    STRIPE_API_PORT: string;
    STRIPE_API_PROTOCOL: string;
  }> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const [path, query = ''] = (req.url ?? '').split('?');
        const recorded: Recorded = {
          method: req.method ?? '',
          path,
          params: Object.fromEntries(new URLSearchParams(req.method === 'GET' ? query : raw)),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          auth: req.headers.authorization,
        };
        this.requests.push(recorded);
        const { status, body } = this.route(recorded);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return {
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String((this.server.address() as AddressInfo).port),
      STRIPE_API_PROTOCOL: 'http',
    };
  }

  close() {
    return new Promise((resolve) => this.server?.close(resolve));
  }

  calls() {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  /** Stripe's idempotency keys expire after 24 hours: the objects stay, the keys go. */
  forgetKeys() {
    this.intentsByKey.clear();
    this.refundsByKey.clear();
  }

  /**
   * The customer answers the bank's 3-D Secure challenge (what `handleNextAction` does in the
   * browser): the SetupIntent or PaymentIntent succeeds, or fails as Stripe fails it.
   */
  authenticate(id: string, passed: boolean) {
    const target = [...this.setups, ...this.intents].find((o) => o.id === id);
    if (!target || target.status !== 'requires_action') throw new Error(`nothing to answer: ${id}`);
    target.next_action = null;
    if (passed) target.status = 'succeeded';
    else {
      target.status = 'requires_payment_method';
      const error = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      };
      if (id.startsWith('seti_')) target.last_setup_error = error;
      else target.last_payment_error = error;
    }
  }

  /** A refund made in the Stripe dashboard: no idempotency key, no metadata of ours. */
  dashboardRefund(paymentIntent: string, amount: number): Obj {
    const refund = {
      id: `re_${++this.ids}`,
      object: 'refund',
      amount,
      currency: 'usd',
      payment_intent: paymentIntent,
      status: 'succeeded',
      metadata: {},
    };
    this.refunds.push(refund);
    return refund;
  }

  /** A SetupIntent with its PaymentMethod expanded when the request asked (`expand[]`). */
  private expanded(setup: Obj, r: Recorded) {
    const wants = Object.entries(r.params).some(
      ([k, v]) => k.startsWith('expand[') && v === 'payment_method',
    );
    const pm = setup.payment_method as string;
    return wants
      ? {
          ...setup,
          payment_method: paymentMethod(
            pm,
            setup.customer as string,
            pm.startsWith('pm_3ds') ? '3184' : '4242',
          ),
        }
      : setup;
  }

  private route(r: Recorded): { status: number; body: object } {
    const ok = (body: object) => ({ status: 200, body });
    let m: RegExpMatchArray | null;
    if (r.path === '/v1/customers')
      return ok({ id: `cus_${++this.ids}`, object: 'customer', email: r.params.email });
    if ((m = r.path.match(/^\/v1\/customers\/(\w+)$/))) return ok({ id: m[1], object: 'customer' });
    if (r.path === '/v1/setup_intents') {
      const pm = r.params.payment_method;
      const asks = pm.startsWith('pm_3ds');
      const id = `seti_${++this.ids}`;
      const setup: Obj = {
        id,
        object: 'setup_intent',
        customer: r.params.customer,
        usage: r.params.usage,
        status: asks ? 'requires_action' : 'succeeded',
        client_secret: `${id}_secret_standin`,
        next_action: asks ? { type: 'use_stripe_sdk', use_stripe_sdk: {} } : null,
        metadata: metadataOf(r.params),
        payment_method: pm,
        last_setup_error: null,
      };
      this.setups.push(setup);
      return ok(this.expanded(setup, r));
    }
    if ((m = r.path.match(/^\/v1\/setup_intents\/(\w+)$/)) && r.method === 'GET') {
      const setup = this.setups.find((x) => x.id === m![1]);
      return setup
        ? ok(this.expanded(setup, r))
        : {
            status: 404,
            body: { error: { type: 'invalid_request_error', message: 'No such setupintent' } },
          };
    }
    if ((m = r.path.match(/^\/v1\/payment_intents\/(\w+)\/confirm$/))) {
      // Confirmed again with the customer present: the bank's challenge this time.
      const intent = this.intents.find((x) => x.id === m![1]);
      if (!intent)
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', message: 'No such payment_intent' } },
        };
      if (intent.status === 'requires_payment_method') {
        intent.status = 'requires_action';
        intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
        intent.last_payment_error = null;
      }
      return ok(intent);
    }
    if ((m = r.path.match(/^\/v1\/payment_intents\/(\w+)\/cancel$/))) {
      const intent = this.intents.find((x) => x.id === m![1]);
      if (!intent || intent.status === 'succeeded')
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
            },
          },
        };
      intent.status = 'canceled';
      intent.cancellation_reason = r.params.cancellation_reason;
      return ok(intent);
    }
    if ((m = r.path.match(/^\/v1\/payment_intents\/(\w+)$/)) && r.method === 'GET') {
      const intent = this.intents.find((x) => x.id === m![1]);
      if (intent) return ok(intent);
    }
    if (
      r.path === '/v1/payment_intents' &&
      r.method === 'POST' &&
      r.params.payment_method?.startsWith('pm_3ds')
    ) {
      // Stripe replays a key's first answer as it was, not the intent as it is now.
      const replay = r.idempotencyKey && this.intentsByKey.get(r.idempotencyKey);
      if (replay) return replay.status === 402 ? (replay.body as never) : ok(replay);
      const id = `pi_${++this.ids}`;
      const offSession = r.params.off_session === 'true';
      const intent: Obj = {
        id,
        object: 'payment_intent',
        amount: Number(r.params.amount),
        currency: r.params.currency,
        customer: r.params.customer,
        created: Math.floor(Date.now() / 1000),
        metadata: metadataOf(r.params),
        client_secret: `${id}_secret_standin`,
        status: offSession ? 'requires_payment_method' : 'requires_action',
        next_action: offSession ? null : { type: 'use_stripe_sdk', use_stripe_sdk: {} },
        last_payment_error: offSession
          ? {
              type: 'card_error',
              code: 'authentication_required',
              decline_code: 'authentication_required',
              message: 'Your card was declined. This transaction requires authentication.',
            }
          : null,
        latest_charge: null,
      };
      this.intents.push(intent);
      if (offSession) {
        const error = cardError(
          'Your card was declined. This transaction requires authentication.',
          {
            code: 'authentication_required',
            decline_code: 'authentication_required',
            payment_intent: { ...intent },
          },
        );
        if (r.idempotencyKey)
          this.intentsByKey.set(r.idempotencyKey, { id, status: 402, body: error } as never);
        return error;
      }
      if (r.idempotencyKey)
        this.intentsByKey.set(r.idempotencyKey, JSON.parse(JSON.stringify(intent)));
      return ok(intent);
    }
    if (r.path === '/v1/payment_methods') {
      const token = r.params['card[token]'];
      if (token === 'tok_chargeDeclined') return cardError('Your card was declined.');
      // Like Stripe's pm_card_authenticationRequired: the bank asks for 3-D Secure.
      if (token === 'tok_authenticationRequired')
        return ok(paymentMethod(`pm_3ds${++this.ids}`, null, '3184'));
      // Like Stripe's tok_chargeCustomerFail: attaches, then every charge is declined.
      const id = token === 'tok_chargeCustomerFail' ? `pm_fail${++this.ids}` : `pm_${++this.ids}`;
      return ok(paymentMethod(id, null));
    }
    if ((m = r.path.match(/^\/v1\/payment_methods\/(\w+)\/attach$/)))
      return ok(paymentMethod(m[1], r.params.customer));
    if ((m = r.path.match(/^\/v1\/payment_methods\/(\w+)\/detach$/)))
      return ok(paymentMethod(m[1], null));
    if (r.path === '/v1/payment_intents' && r.method === 'GET') {
      const since = Number(r.params['created[gte]'] ?? 0);
      const found = this.intents
        .filter((i) => i.customer === r.params.customer && (i.created as number) >= since)
        .reverse();
      return list('/v1/payment_intents', found);
    }
    if (r.path === '/v1/payment_intents') {
      const earlier = r.idempotencyKey && this.intentsByKey.get(r.idempotencyKey);
      if (earlier) return ok(earlier);
      const id = `pi_${++this.ids}`;
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
        currency: r.params.currency,
        customer: r.params.customer,
        created: Math.floor(Date.now() / 1000),
        metadata: metadataOf(r.params),
        latest_charge: {
          id: `ch_${this.ids}`,
          object: 'charge',
          receipt_url: `https://pay.stripe.com/receipts/${id}`,
        },
      };
      this.intents.push(intent);
      if (r.idempotencyKey) this.intentsByKey.set(r.idempotencyKey, intent);
      return ok(intent);
    }
    if (r.path === '/v1/refunds' && r.method === 'GET')
      return list(
        '/v1/refunds',
        this.refunds.filter((x) => x.payment_intent === r.params.payment_intent).reverse(),
      );
    if (r.path === '/v1/refunds') {
      const earlier = r.idempotencyKey && this.refundsByKey.get(r.idempotencyKey);
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
      const fails = r.params.payment_intent === 'pi_refund_fails';
      const refund = {
        id: `re_${++this.ids}`,
        object: 'refund',
        amount: Number(r.params.amount),
        currency: 'usd',
        payment_intent: r.params.payment_intent,
        metadata: metadataOf(r.params),
        status: fails ? 'failed' : 'pending',
        failure_reason: fails ? 'expired_or_canceled_card' : null,
      };
      this.refunds.push(refund);
      if (r.idempotencyKey) this.refundsByKey.set(r.idempotencyKey, refund);
      return ok(refund);
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL` } },
    };
  }
}
