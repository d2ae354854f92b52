import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PaymentProvider } from './provider';
import { LocalPaymentProvider } from './local-provider';
import { StripePaymentProvider } from './stripe-provider';

/**
 * Stripe when STRIPE_SECRET_KEY is set, else the built-in local provider. Stripe's SDK (some
 * 20 MB resident) is loaded only then, not by every instance (decision 0049).
 */
export async function createPaymentProvider(config: Config, db: Db): Promise<PaymentProvider> {
  if (config.stripe)
    return new StripePaymentProvider(config.stripe, (await import('stripe')).default);
  return new LocalPaymentProvider(db, config.publicUrl);
}
