import type Stripe from 'stripe';
import { PADDOCK_KEY } from '../../plugins/payments/stripe-provider';
import { settleCheckout } from '../checkout/finish-checkout';
import { settleVoucherPurchase } from '../vouchers/voucher-purchase';
import { recordProviderRefunds } from './provider-refunds';
import { recordDispute } from './disputes';
import type { EventContext } from './event-context';

/** The checkout a PaymentIntent charged: its key is `{customer}:checkout-{id}` (charge-card.ts). */
export function checkoutOfIntent(intent: Stripe.PaymentIntent): number | null {
  const match = /(?:^|:)checkout-(\d+)$/.exec(intent.metadata?.[PADDOCK_KEY] ?? '');
  return match ? Number(match[1]) : null;
}

/** The voucher purchase a PaymentIntent charged: key `{customer}:voucher-{code}` (decision 0095). */
export function voucherOfIntent(intent: Stripe.PaymentIntent): string | null {
  return /(?:^|:)voucher-([A-Z0-9]+)$/.exec(intent.metadata?.[PADDOCK_KEY] ?? '')?.[1] ?? null;
}

/** What each subscribed event does; any other type is stored and otherwise ignored. */
export async function handleStripeEvent(ctx: EventContext, event: Stripe.Event) {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      // A checkout still claimed ends through the request path's own finish (decision 0072),
      // which finds this charge at Stripe; anything else already has its answer.
      const code = voucherOfIntent(event.data.object);
      if (code !== null) {
        await settleVoucherPurchase(ctx, code);
        return;
      }
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
      if (waiting !== null) await settleCheckout(ctx, waiting);
      const purchase = voucherOfIntent(intent);
      // A purchase waiting for its challenge (failed at the bank) ends failed, nothing charged.
      if (purchase !== null) await settleVoucherPurchase(ctx, purchase);
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
