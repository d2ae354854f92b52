import { and, count, desc, eq, gt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charges } from '../../db/schema/payments';

export type ChargeFilter = { userId: number; amountCentsGt?: number };

function where(filter: ChargeFilter): SQL | undefined {
  return and(
    eq(charges.userId, filter.userId),
    // The filter hides $0 charge lines (spec: amount_cents__gt 0); refunds, negative by nature,
    // are always listed (docs/decisions/0027-cancellations-and-refunds.md).
    filter.amountCentsGt === undefined
      ? undefined
      : or(gt(charges.amountCents, filter.amountCentsGt), eq(charges.kind, 'refund')),
  );
}

export async function countCharges(db: Db, filter: ChargeFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(charges).where(where(filter));
  return row.n;
}

/** Newest first. */
export function pageOfCharges(db: Db, filter: ChargeFilter, limit: number, offset: number) {
  return db
    .select()
    .from(charges)
    .where(where(filter))
    .orderBy(desc(charges.createdAt), desc(charges.id))
    .limit(limit)
    .offset(offset);
}
