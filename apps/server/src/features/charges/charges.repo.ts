import { and, count, desc, eq, gt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { charges } from '../../db/schema/payments';

export type ChargeFilter = { userId: number; amountCentsGt?: number };

function where(filter: ChargeFilter): SQL | undefined {
  return and(
    eq(charges.userId, filter.userId),
    filter.amountCentsGt === undefined ? undefined : gt(charges.amountCents, filter.amountCentsGt),
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
