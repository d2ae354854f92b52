import { vi, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { stripeEvents } from '../db/schema/payments';
import type { TestApp } from './test-app';

/** The webhook's path (decision 0084). */
export const WEBHOOK_URL = '/api/payments/stripe/webhook';

/** Only for its signing helper: the same code Stripe's own libraries sign test events with. */
const sdk = new Stripe('sk_test_signing_only');
let events = 0;

/** The `Stripe-Signature` header Stripe would send with these bytes. */
export const testSignature = (payload: string, secret: string, timestamp?: number) =>
  sdk.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });

/** An event as Stripe sends it, around `object`. */
export function stripeEvent(type: string, object: object, id = `evt_${++events}_${Date.now()}`) {
  return {
    id,
    object: 'event',
    type,
    livemode: false,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  };
}

/**
 * Posting events to `t`'s webhook as Stripe does (the JSON bytes and their `Stripe-Signature`,
 * made by the SDK's `generateTestHeaderString`), and waiting until one was handled.
 */
export function signedDelivery(t: TestApp, secret: string) {
  const deliver = (
    ev: object,
    opts: { secret?: string; timestamp?: number; header?: string } = {},
  ) => {
    const payload = JSON.stringify(ev);
    const header = opts.header ?? testSignature(payload, opts.secret ?? secret, opts.timestamp);
    return t.app.inject({
      method: 'POST',
      url: WEBHOOK_URL,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      payload,
    });
  };
  const stored = (id: string) => t.db.select().from(stripeEvents).where(eq(stripeEvents.id, id));
  /** Waits (bounded) until the event was handled after the answer. */
  const handled = (id: string) =>
    vi.waitFor(
      async () => {
        const [row] = await stored(id);
        expect(row?.handledAt, row?.lastError).toBeInstanceOf(Date);
        return row;
      },
      { timeout: 10_000, interval: 20 },
    );
  return { deliver, stored, handled };
}
