import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PaymentProvider } from './provider';
import { LocalPaymentProvider } from './local-provider';
import { StripePaymentProvider } from './stripe-provider';

/** Stripe when STRIPE_SECRET_KEY is set, else the built-in local provider. */
export function createPaymentProvider(config: Config, db: Db): PaymentProvider {
  if (config.stripe) return new StripePaymentProvider(config.stripe);
  return new LocalPaymentProvider(db, config.publicUrl);
}
