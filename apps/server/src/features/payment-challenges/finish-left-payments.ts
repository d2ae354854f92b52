import { sql } from 'drizzle-orm';
import { settleByKey, type SettleContext } from './settle-by-key';

/** A pass takes this many at most; the next pass (a minute later) takes the rest. */
const PASS_LIMIT = 200;

/**
 * Finishes voucher purchases and club enrolments a crash left between their charge and their
 * finish (decision 0100), as the checkout's repair does for checkouts (0072): every purchase
 * still waiting and every pending membership older than `afterMs` that is not waiting for a
 * challenge is settled with its own key, so the charge the provider made (or makes now, carrying
 * out what the customer pressed) buys its voucher or membership, once, under its row lock.
 * Those waiting for a challenge are releaseStaleChallenges' after the hold.
 */
export async function finishLeftPayments(
  ctx: SettleContext,
  opts: { afterMs: number; now?: Date },
): Promise<number> {
  const before = new Date((opts.now ?? new Date()).getTime() - opts.afterMs).toISOString();
  const { rows } = await ctx.db.execute<{ key: string }>(sql`
    select key from (
      select 'voucher-' || p.code as key, p.id from voucher_purchases p
      where p.status = 'awaiting_authentication' and p.created_at <= ${before}::timestamptz
      union all
      select 'club-' || m.id || '-' || m.next_charge_on as key, m.id from club_memberships m
      where m.status = 'pending' and m.started_at <= ${before}::timestamptz
    ) left_over
    where not exists (select 1 from payment_challenges c where c.idempotency_key = left_over.key)
    order by id limit ${PASS_LIMIT}`);
  let settled = 0;
  for (const { key } of rows) {
    try {
      await settleByKey(ctx, key);
      settled += 1;
    } catch (error) {
      // The provider unreachable: it stays for the next pass.
      ctx.logError(error, `money repair could not finish ${key}`);
    }
  }
  return settled;
}
