import { expect } from 'vitest';
import { claimCheckout } from '../features/checkout/claim-checkout';
import type { CheckoutRow } from '../features/checkout/checkout.repo';
import type { CreatedUser } from './factories';
import type { TestApp } from './test-app';

/**
 * The first step of processing a quoted checkout, the same as the route's (its seats held, the
 * checkout `charging`), and nothing after it: as if the process died right after the claim.
 */
export async function claimOnly(
  t: TestApp,
  user: CreatedUser,
  checkoutId: number,
): Promise<CheckoutRow> {
  const ctx = {
    db: t.db,
    payments: t.deps.payments,
    mailer: t.deps.mailer,
    receipts: t.app.receipts,
    publicUrl: t.deps.config.publicUrl,
    mailFrom: t.deps.config.mailFrom,
    logError: (error: unknown) => {
      throw error;
    },
  };
  const customer = {
    id: user.id,
    isStaff: false,
    isSuperuser: false,
    permissions: new Set<string>(),
  };
  const claim = await claimCheckout(ctx, customer, checkoutId, new Date());
  expect(claim).toMatchObject({ claimedNow: true });
  if (!('charge' in claim)) throw new Error(`checkout ${checkoutId} was not claimed`);
  return { ...claim.charge, status: 'charging' };
}
