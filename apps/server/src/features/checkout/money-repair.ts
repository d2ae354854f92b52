import { Cron } from 'croner';
import { sql } from 'drizzle-orm';
import type { CheckoutContext } from './checkout-context';
import { expireAuthentication, settleCheckout } from './finish-checkout';
import { AUTHENTICATION_HOLD_MS } from '../../plugins/payments/provider';
import { refundOwedCheckouts } from './refund-owed';

/** Any number, held by pg_try_advisory_xact_lock: one repair pass at a time across instances. */
const MONEY_REPAIR_LOCK = 727_001;
/** A pass takes this many at most; the next pass (a minute later) takes the rest. */
const PASS_LIMIT = 200;

export type RepairContext = Pick<
  CheckoutContext,
  'db' | 'payments' | 'receipts' | 'logError' | 'publicUrl' | 'mailer'
>;
export type RepairReport = { locked: boolean; found: number; finished: number };

/**
 * Ends every checkout left claimed (`charging`: seats booked unpaid, the charge perhaps made)
 * for longer than `afterMs`, through the same `chargeAndFinish` as the request path (decision
 * 0072): a charge that exists under `checkout-{id}`, ours or only the provider's, is answered
 * and the bookings are marked paid by it; with none, the customer's pressed "pay" is carried out
 * with that key, so never twice. One pass at a time across instances (an advisory lock); a pass
 * racing a late request or a retry is still exact, since the key and the finish under the row
 * lock decide, not the lock.
 */
export async function repairCheckouts(
  ctx: RepairContext,
  opts: { afterMs: number; now?: Date },
): Promise<RepairReport> {
  const before = new Date((opts.now ?? new Date()).getTime() - opts.afterMs);
  const report = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${MONEY_REPAIR_LOCK}) as locked`,
    );
    if (!rows[0]?.locked) return { locked: false, found: 0, finished: 0 };
    // Claimed when its bookings were written (in the claim's own statement or transaction).
    const { rows: stuck } = await tx.execute<{ id: number }>(sql`
      select c.id from checkouts c
      where c.status = 'charging' and c.result is null
        and not exists (select 1 from reservations r
          where r.checkout_id = c.id and r.created_at > ${before.toISOString()}::timestamptz)
      order by c.id limit ${PASS_LIMIT}`);
    // Challenges nobody answered within the hold: their seats go back (decision 0085).
    const { rows: unanswered } = await tx.execute<{ id: number }>(sql`
      select c.id from checkouts c
      where c.status = 'awaiting_authentication' and c.result is null
        and not exists (select 1 from reservations r where r.checkout_id = c.id
          and r.created_at > ${new Date((opts.now ?? new Date()).getTime() - AUTHENTICATION_HOLD_MS).toISOString()}::timestamptz)
      order by c.id limit ${PASS_LIMIT}`);
    let finished = 0;
    for (const { id } of unanswered) {
      try {
        if ((await expireAuthentication(ctx, id))?.finishedNow) finished += 1;
      } catch (error) {
        ctx.logError(error, `money repair could not end the challenge of checkout ${id}`);
      }
    }
    for (const { id } of stuck) {
      try {
        if ((await settleCheckout(ctx, id))?.finishedNow) finished += 1;
      } catch (error) {
        // The provider unreachable: the checkout stays claimed for the next pass.
        ctx.logError(error, `money repair could not finish checkout ${id}`);
      }
    }
    // Seats cancelled while the bank checked, paid anyway: every cent back (decision 0114).
    await refundOwedCheckouts(ctx);
    return { locked: true, found: stuck.length + unanswered.length, finished };
  });
  if (report.finished > 0) ctx.receipts.wake();
  return report;
}

/**
 * The repair at start and every `everySeconds` after (main.ts; tests call repairCheckouts).
 * Every instance runs it; the advisory lock lets one pass work at a time.
 */
export function startMoneyRepairJob(
  ctx: RepairContext,
  opts: {
    afterMs: number;
    everySeconds: number;
    /** Other repairs of the same kind, run after each pass (main.ts: abandoned challenges). */
    alsoEachPass?: () => Promise<unknown>;
  },
): { stop: () => void } {
  const job = new Cron(
    '* * * * * *',
    {
      interval: opts.everySeconds,
      protect: true,
      catch: (error) => ctx.logError(error, 'money repair failed'),
    },
    async () => {
      await repairCheckouts(ctx, { afterMs: opts.afterMs });
      await opts.alsoEachPass?.();
    },
  );
  void job.trigger();
  return { stop: () => job.stop() };
}
