import { z } from 'zod';
import type Stripe from 'stripe';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps';
import { routeErrors as errors } from '../../lib/route-errors';
import { NotFound, ValidationError } from '../../plugins/errors';
import { StripePaymentProvider } from '../../plugins/payments/stripe-provider';
import type { StripeEventWorker } from './event-worker';
import { storeEvent } from './stripe-events';

/** Stripe's events are a few kB; its largest (a charge with its refunds) well under this. */
export const WEBHOOK_LIMIT = 256 * 1024;

/** What storing and handling rely on; the rest of the event is the handlers' to read. */
const isEvent = (event: unknown): event is Stripe.Event => {
  const e = event as Partial<Stripe.Event> | null;
  return (
    typeof e?.id === 'string' &&
    /^evt_\w{1,250}$/.test(e.id) &&
    typeof e.type === 'string' &&
    e.type.length <= 200 &&
    typeof e.data?.object === 'object' &&
    e.data.object !== null
  );
};

/**
 * Stripe's webhook (decision 0084): public, its signature checked on the raw bytes with the
 * endpoint's secret (so the body is kept as bytes, never parsed as JSON first), the event stored
 * once by its id and handled after the answer. Without Stripe or its webhook secret: 404.
 */
export const stripeWebhookRoutes =
  (deps: Deps, worker: StripeEventWorker | null): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: WEBHOOK_LIMIT },
        (_request, body, done) => done(null, body),
      );
      raw.post(
        '/payments/stripe/webhook',
        {
          bodyLimit: WEBHOOK_LIMIT,
          schema: {
            tags: ['payments'],
            summary: "Stripe's events (signed with STRIPE_WEBHOOK_SECRET); each stored once",
            response: { 200: z.object({ received: z.literal(true) }), ...errors },
          },
          // After the answer: Stripe waits for nothing but the 200 (DESIGN §8).
          onResponse: async (_request, reply) => {
            if (reply.statusCode === 200) void worker?.wake();
          },
        },
        async (request) => {
          const secret = deps.config.stripe?.webhookSecret;
          if (!(deps.payments instanceof StripePaymentProvider) || !secret || !worker)
            throw new NotFound('Stripe webhooks are not configured on this server.');
          if (!Buffer.isBuffer(request.body) || request.body.length === 0)
            throw ValidationError.field('body', 'Send the event as Stripe signed it.');
          const signature = request.headers['stripe-signature'];
          if (typeof signature !== 'string')
            throw ValidationError.field('stripe-signature', 'This header is required.');
          let event;
          try {
            event = deps.payments.verifyWebhook(request.body, signature, secret);
          } catch (error) {
            // Signed by the secret but not an event: only Stripe (or the secret's thief) sends it.
            if (error instanceof SyntaxError)
              throw ValidationError.field('body', 'The event is not JSON.');
            // Verifying does no I/O, so whatever else it throws is about the header: besides
            // its own SignatureVerificationError, the SDK throws a plain Error on an empty
            // `v1=` (seen in the fuzz suite).
            throw ValidationError.field(
              'stripe-signature',
              "The signature does not match the endpoint's secret, or is too old.",
            );
          }
          if (!isEvent(event)) throw ValidationError.field('body', 'This is not a Stripe event.');
          await storeEvent(db, event);
          return { received: true as const };
        },
      );
    });
  };
