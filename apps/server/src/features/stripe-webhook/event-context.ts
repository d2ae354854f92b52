import type { Db } from '../../db/client';
import type { Mailer } from '../../plugins/mail';
import type { StripePaymentProvider } from '../../plugins/payments/stripe-provider';
import type { CheckoutContext } from '../checkout/checkout-context';

// What a Stripe event's handlers get, apart from handle-event.ts, which calls those handlers
// (decision 0086: no import circles).
export type EventContext = {
  db: Db;
  payments: StripePaymentProvider;
  mailer: Mailer;
  receipts: CheckoutContext['receipts'];
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
  logInfo: (fields: object, message: string) => void;
  crashAt?: CheckoutContext['crashAt'];
};
