import { eq } from 'drizzle-orm';
import { voucherPurchases, type VoucherPurchaseStatus } from '../../db/schema/booking';
import type { Queryable } from '../../plugins/payments/charge-card';

export type PurchaseRow = typeof voucherPurchases.$inferSelect;

/** Writes the attempt under `code`, or null when that code is taken (draw another). */
export async function insertPurchase(
  db: Queryable,
  values: typeof voucherPurchases.$inferInsert,
): Promise<PurchaseRow | null> {
  const [row] = await db
    .insert(voucherPurchases)
    .values(values)
    .onConflictDoNothing({ target: voucherPurchases.code })
    .returning();
  return row ?? null;
}

/** The purchase, locked until the caller's transaction ends: one finisher at a time. */
export async function lockPurchase(db: Queryable, id: number): Promise<PurchaseRow | null> {
  const [row] = await db
    .select()
    .from(voucherPurchases)
    .where(eq(voucherPurchases.id, id))
    .for('update');
  return row ?? null;
}

export async function findPurchaseByCode(db: Queryable, code: string) {
  const [row] = await db.select().from(voucherPurchases).where(eq(voucherPurchases.code, code));
  return row ?? null;
}

export async function setPurchaseStatus(db: Queryable, id: number, status: VoucherPurchaseStatus) {
  await db.update(voucherPurchases).set({ status }).where(eq(voucherPurchases.id, id));
}
