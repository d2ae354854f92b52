import { charges } from '../../db/schema/payments';
import type { ChargeRecord, Queryable } from './charge-card';
import type { PaymentProvider } from './provider';

/**
 * Gives a charge back in full at the provider, once, recorded as a refund line in the customer's
 * transactions under `stray-refund-{charge id}` (decisions 0100, 0114): for money that nothing
 * holds any more (a balance that changed, seats cancelled while the bank checked). The key makes
 * the provider answer an earlier refund instead of refunding twice; a declined refund is recorded
 * with its error and the next pass tries again under the same key. Answers whether it went through.
 */
export async function refundInFull(
  db: Queryable,
  payments: PaymentProvider,
  charge: ChargeRecord,
  notes: string,
): Promise<boolean> {
  if (!charge.chargeRef) return false;
  const key = `stray-refund-${charge.id}`;
  const result = await payments.refund(
    charge.chargeRef,
    charge.amountCents,
    `${charge.chargeRef}:${key}`,
  );
  const errors = result.ok ? '' : result.message;
  await db
    .insert(charges)
    .values({
      userId: charge.userId,
      amountCents: -charge.amountCents,
      currency: charge.currency,
      notes,
      errors,
      chargeRef: result.refundRef,
      kind: 'refund',
      idempotencyKey: key,
    })
    .onConflictDoUpdate({
      target: charges.idempotencyKey,
      set: { errors, chargeRef: result.refundRef },
    });
  return result.ok;
}
