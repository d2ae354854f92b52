import { sql } from 'drizzle-orm';
import type { CheckoutResult } from '../../db/schema/booking';
import type { Db } from '../../db/client';
import { executeNamed } from '../../db/named';
import { ANNOUNCE_AFTER_COMMIT, announceAfterCommit } from '../../plugins/changes';

/**
 * The one finish of a paid checkout (decision 0072): marks the checkout's reservations paid by
 * `chargeId`, stores the answer and owes the confirmation (decision 0059; its sender reads what
 * the mail says), in one statement, unless a concurrent finisher stored an answer first: then
 * that one is the answer (null if it committed after this statement began; the caller reads it
 * again). The seats paid are announced after the commit (decision 0053).
 */
export async function finishPaid(
  db: Db,
  id: number,
  paid: { chargeId: number; chargeRef: string | null; result: CheckoutResult },
): Promise<{ finishedNow: boolean; stored: CheckoutResult | null }> {
  const [row] = await executeNamed<{
    done: number;
    stored: CheckoutResult | null;
    seats: number[] | null;
  }>(
    db,
    sql`
    with
    done as (
      update checkouts set status = 'paid', result = ${JSON.stringify(paid.result)}::jsonb,
        charge_ref = ${paid.chargeRef}, processed_at = now()
      where id = ${id}::int and result is null
      returning id
    ),
    marked as (
      update reservations set paid = true, charge_id = ${paid.chargeId}::int, updated_at = now()
      where checkout_id = ${id}::int and cancelled_at is null and not paid
        and exists (select 1 from done)
      returning calendar_id
    ),
    owed as (
      insert into receipts_owed (checkout_id) select id from done on conflict do nothing)
    select (select count(*)::int from done) as done,
      (select result from checkouts where id = ${id}::int) as stored,
      (select array_agg(distinct calendar_id) from marked) as seats,
      ${ANNOUNCE_AFTER_COMMIT} as announce_later`,
  );
  await announceAfterCommit(db, { cache: (row.seats ?? []).map((seat) => `s:${seat}`) });
  return row.done > 0
    ? { finishedNow: true, stored: paid.result }
    : { finishedNow: false, stored: row.stored };
}
