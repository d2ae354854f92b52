import type Stripe from 'stripe';
import { PADDOCK_KEY } from '../../plugins/payments/stripe-provider';
import { settleCheckout } from '../checkout/finish-checkout';
import { ownKey, settleByKey } from '../payment-challenges/settle-by-key';
import { recordProviderRefunds } from './provider-refunds';
import { recordDispute } from './disputes';
import type { EventContext } from './event-context';

/** The checkout a PaymentIntent charged: its key is `{customer}:checkout-{id}` (charge-card.ts). */
export function checkoutOfIntent(intent: Stripe.PaymentIntent): number | null {
  const match = /(?:^|:)checkout-(\d+)$/.exec(intent.metadata?.[PADDOCK_KEY] ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Finishes whatever waits on a PaymentIntent's challenge: a voucher purchase, an enrolment, a
 * cancellation's charge-back, an outstanding balance.
 */
const settleOnSession = (ctx: EventContext, intent: Stripe.PaymentIntent) =>
  settleByKey(ctx, ownKey(intent.metadata?.[PADDOCK_KEY] ?? ''));

/** What each subscribed event does; any other type is stored and otherwise ignored. */
export async function handleStripeEvent(ctx: EventContext, event: Stripe.Event) {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      // A checkout still claimed ends through the request path's own finish (decision 0072),
      // which finds this charge at Stripe; anything else already has its answer.
      await settleOnSession(ctx, event.data.object);
      const id = checkoutOfIntent(event.data.object);
      if (id === null) return;
      const finished = await settleCheckout(ctx, id);
      if (finished?.finishedNow) ctx.receipts.wake();
      return;
    }
    case 'payment_intent.payment_failed': {
      // The checkout's own path answers the customer and records the decline. A checkout
      // waiting for its challenge (failed at the bank) is released here if nobody asked yet.
      const intent = event.data.object;
      const waiting = checkoutOfIntent(intent);
      if (waiting !== null) {
        // Its end (declined: seats kept unpaid; released) owes one mail: sent now.
        const ended = await settleCheckout(ctx, waiting);
        if (ended?.finishedNow) ctx.receipts.wake();
      }
      // A purchase or enrolment waiting for its challenge ends failed here, nothing charged.
      await settleOnSession(ctx, intent);
      ctx.logInfo(
        {
          paymentIntent: intent.id,
          checkout: checkoutOfIntent(intent),
          reason: intent.last_payment_error?.code ?? null,
        },
        'Stripe: a payment failed',
      );
      return;
    }
    case 'setup_intent.succeeded':
      // The card is stored when the web sends the setup back (cards.service.ts `saveCard`):
      // the customer is on that page, and a setup nobody finished saves no card.
      return;
    case 'charge.refunded':
      return recordProviderRefunds(ctx, event.data.object);
    case 'charge.dispute.created':
      return recordDispute(ctx, event.data.object, 'opened');
    case 'charge.dispute.closed':
      return recordDispute(ctx, event.data.object, 'closed');
    default:
      return;
  }
}
