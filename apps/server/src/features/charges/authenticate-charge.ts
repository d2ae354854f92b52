import { and, eq } from 'drizzle-orm';
import type { AuthenticateChargeResponse } from '@paddock/contract/charges';
import type { Db } from '../../db/client';
import { charges } from '../../db/schema/payments';
import { NotFound, PaymentError } from '../../plugins/errors';
import { needsAuthentication } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import * as clubRepo from '../club/club.repo';
import { applyRenewal } from '../club/renewals';

/** `club-{membership}-{cycle date}` with `-retry{n}` after a decline (renewals.ts). */
const RENEWAL_KEY = /^club-(\d+)-(\d{4}-\d{2}-\d{2})(?:-retry\d+)?$/;

/**
 * The customer completes a charge made without them that their bank wants authenticated (the
 * e-mailed link, decision 0085): while it waits, the challenge; once it succeeded, the Charge
 * becomes a payment and what it paid takes effect, exactly once (the conditional update of the
 * Charge row decides, under the membership's lock): a club renewal puts the member back in good
 * standing with the month's credits, unless a later renewal paid that cycle meanwhile.
 */
export async function authenticateCharge(
  db: Db,
  payments: PaymentProvider,
  userId: number,
  chargeId: number,
  returnUrl: string,
): Promise<AuthenticateChargeResponse> {
  const [charge] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.id, chargeId), eq(charges.userId, userId)));
  if (!charge) throw new NotFound();
  // Only renewals for now: what another charge paid (an outstanding balance's bookings) would
  // need its own finish here, or it would be charged again later (decision 0085).
  const renewal = RENEWAL_KEY.exec(charge.idempotencyKey);
  if (!renewal || charge.kind !== 'club') throw new NotFound();
  if (!charge.errors) return { status: 'paid', client_secret: null, challenge_url: null };
  if (!needsAuthentication(charge)) throw new NotFound();
  const result = await payments.authenticateLater(charge.chargeRef!, returnUrl);
  if (!result.ok && result.action)
    return {
      status: 'requires_action',
      client_secret: result.action.clientSecret,
      challenge_url: result.action.challengeUrl,
    };
  if (!result.ok) throw new PaymentError(result.message);
  await db.transaction(async (tx) => {
    const membership = await clubRepo.lockMembership(tx, Number(renewal[1]));
    const [paid] = await tx
      .update(charges)
      .set({ errors: '', receiptUrl: result.receiptUrl })
      .where(and(eq(charges.id, charge.id), eq(charges.errors, charge.errors)))
      .returning({ id: charges.id });
    if (!paid || !membership) return;
    if (membership.status === 'past_due' && membership.nextChargeOn === renewal[2])
      await applyRenewal(tx, membership, charge.id);
  });
  return { status: 'paid', client_secret: null, challenge_url: null };
}
