import type { Config } from '../../config';
import type { AttachedCard, ChargeResult, PaymentProvider } from './provider';

// Placeholder until the cards work lands (see issue 2).
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string | null;
  constructor(options: NonNullable<Config['stripe']>) {
    this.publishableKey = options.publishableKey;
  }
  async attachCard(): Promise<AttachedCard> {
    throw new Error('not implemented');
  }
  async detachCard(): Promise<void> {}
  async charge(): Promise<ChargeResult> {
    throw new Error('not implemented');
  }
  customerUrl(): string | null {
    return null;
  }
}
