import type { Db } from '../../db/client';
import type { AttachedCard, ChargeResult, PaymentProvider } from './provider';

// Placeholder until the cards work lands (see issue 2).
export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;
  readonly publishableKey = null;
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}
  async attachCard(): Promise<AttachedCard> {
    void this.db;
    void this.publicUrl;
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
