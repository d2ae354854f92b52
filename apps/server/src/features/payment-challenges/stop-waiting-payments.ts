import { and, eq, inArray, isNull } from 'drizzle-orm';
import { checkouts } from '../../db/schema/booking';
import { expireAuthentication } from '../checkout/finish-checkout';
import { openChallengesOf, releaseChallenge } from './release-stale-challenges';
import type { SettleContext } from './settle-by-key';

/**
 * Every payment of the customer's that waits for their bank (a checkout, a voucher purchase, an
 * enrolment, a charge-back, a balance), stopped at the provider and ended as it then says, before
 * the account goes (issue 40, decision 0114): a challenge passed afterwards takes nothing, and
 * one passed just before is finished and recorded while the account still exists.
 */
export async function stopWaitingPaymentsOf(ctx: SettleContext, userId: number) {
  const waiting = await ctx.db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(
      and(
        eq(checkouts.userId, userId),
        inArray(checkouts.status, ['charging', 'awaiting_authentication']),
        isNull(checkouts.result),
      ),
    );
  for (const { id } of waiting) await expireAuthentication(ctx, id);
  for (const challenge of await openChallengesOf(ctx, userId))
    if (challenge.kind !== 'booking') await releaseChallenge(ctx, challenge, new Date());
}
