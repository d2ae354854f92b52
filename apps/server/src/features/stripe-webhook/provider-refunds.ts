import { and, eq, ne } from 'drizzle-orm';
import type Stripe from 'stripe';
import { charges } from '../../db/schema/payments';
import { PADDOCK_KEY } from '../../plugins/payments/stripe-provider';
import { recordTransaction } from '../refunds/refunds.repo';
import type { EventContext } from './event-context';

/** The key of the transaction line of a refund made at Stripe: one line per refund, ever. */
export const PROVIDER_REFUND_PREFIX = 'stripe-refund-';
export const providerRefundKey = (refundRef: string) => `${PROVIDER_REFUND_PREFIX}${refundRef}`;

/** The Charge row (not a refund line) a PaymentIntent is recorded as, or null if not ours. */
export async function chargeOfIntent(ctx: Pick<EventContext, 'db'>, intentRef: string) {
  const [row] = await ctx.db
    .select()
    .from(charges)
    .where(and(eq(charges.chargeRef, intentRef), ne(charges.kind, 'refund')))
    .limit(1);
  return row ?? null;
}

export const intentRefOf = (object: { payment_intent: string | { id: string } | null }) =>
  typeof object.payment_intent === 'string' ? object.payment_intent : object.payment_intent?.id;

/**
 * Refunds of one of our charges made outside Paddock (the Stripe dashboard) become refund lines
 * in the customer's transactions, and so in the reports: one line per Stripe refund, whatever
 * the number of events. The refunds are listed from Stripe rather than read from the event, so
 * events arriving out of order or twice still leave exactly the refunds Stripe holds. Refunds
 * carrying our key are Paddock's own, recorded by the path that sent them (refunds.service).
 */
export async function recordProviderRefunds(ctx: EventContext, charge: Stripe.Charge) {
  const intentRef = intentRefOf(charge);
  if (!intentRef) return;
  const original = await chargeOfIntent(ctx, intentRef);
  if (!original) {
    ctx.logInfo({ paymentIntent: intentRef }, 'Stripe: a refund of a charge Paddock did not make');
    return;
  }
  for (const refund of await ctx.payments.refundsOf(intentRef)) {
    if (refund.metadata?.[PADDOCK_KEY]) continue;
    if (refund.status === 'failed' || refund.status === 'canceled') continue;
    // A refund Paddock sent before refunds carried the key is already a line by its reference.
    const [ours] = await ctx.db
      .select({ id: charges.id })
      .from(charges)
      .where(eq(charges.chargeRef, refund.id))
      .limit(1);
    if (ours) continue;
    await recordTransaction(ctx.db, {
      userId: original.userId,
      amountCents: -refund.amount,
      currency: refund.currency.toUpperCase(),
      notes: `Refund at Stripe of charge #${original.id}: ${original.notes}`,
      chargeRef: refund.id,
      kind: 'refund',
      idempotencyKey: providerRefundKey(refund.id),
    });
  }
}
