// Refunded credits that wait for the membership's good standing: released on renewal, or their
// value back to the card when the member leaves.
import { addCredits, isClubMemberInGoodStanding } from '../../plugins/club-membership';
import type { Queryable } from '../../plugins/payments/charge-card';
import * as repo from './refunds.repo';

/**
 * Credits that waited for good standing go to the balance once the membership is in good
 * standing again (the club calls this after a successful renewal). Inside the caller's transaction.
 */
export async function releaseWaitingCredits(tx: Queryable, userId: number): Promise<number> {
  if (!(await isClubMemberInGoodStanding(tx, userId))) return 0;
  let released = 0;
  for (const refund of await repo.waitingCredits(tx, userId)) {
    await addCredits(tx, {
      userId,
      credits: refund.credits,
      reason: 'refund',
      reservationId: refund.reservationId,
      checkoutId: refund.checkoutId,
    });
    await repo.updateRefund(tx, refund.id, { creditsStatus: 'returned' });
    released += refund.credits;
  }
  return released;
}

/**
 * The member leaves while credits wait: their value (10 cents a credit) goes back to the card
 * instead, against the member's latest club charge (what bought the credits), never more than is
 * left on it. Inside the cancelling transaction; returns the refunds to send after the commit.
 */
export async function waitingCreditsToCard(tx: Queryable, userId: number): Promise<number[]> {
  const waiting = await repo.waitingCredits(tx, userId);
  if (waiting.length === 0) return [];
  const charge = await repo.latestClubCharge(tx, userId);
  const ids: number[] = [];
  let left = charge ? charge.amountCents - (await repo.cardRefundedFrom(tx, charge.id)) : 0;
  for (const refund of waiting) {
    const cents = Math.max(0, Math.min(refund.creditsCents, left));
    left -= cents;
    await repo.updateRefund(tx, refund.id, {
      creditsStatus: 'to_card',
      ...(cents > 0 && charge
        ? { cardCents: refund.cardCents + cents, chargeId: charge.id, cardStatus: 'pending' }
        : {}),
    });
    if (cents > 0) ids.push(refund.id);
  }
  return ids;
}
