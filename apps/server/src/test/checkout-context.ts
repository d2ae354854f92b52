import type { FinishContext } from '../features/checkout/finish-checkout';
import type { RepairContext } from '../features/checkout/money-repair';
import type { TestApp } from './test-app';

/**
 * What the money repair and a checkout's finishing path take, from the test app: confirmations
 * are not woken (a test reads what is owed), and an error they would log fails the test.
 */
export function checkoutContext(t: TestApp): RepairContext & FinishContext {
  return {
    db: t.db,
    payments: t.deps.payments,
    mailer: t.deps.mailer,
    receipts: { wake: () => {} },
    publicUrl: t.deps.config.publicUrl,
    logError: (error) => {
      throw error;
    },
  };
}
