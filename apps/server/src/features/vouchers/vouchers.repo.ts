import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../plugins/payments/charge-card';
import { voucherRedemptions, vouchers } from '../../db/schema/booking';
import { users } from '../../db/schema/accounts';
import { cards } from '../../db/schema/payments';

export type VoucherRow = typeof vouchers.$inferSelect;

/** Inserts unless the code exists (null then: draw another). */
export async function insertVoucher(
  db: Queryable,
  values: typeof vouchers.$inferInsert,
): Promise<VoucherRow | null> {
  const [row] = await db
    .insert(vouchers)
    .values(values)
    .onConflictDoNothing({ target: vouchers.code })
    .returning();
  return row ?? null;
}

export async function findByCode(db: Queryable, code: string): Promise<VoucherRow | null> {
  const [row] = await db.select().from(vouchers).where(eq(vouchers.code, code));
  return row ?? null;
}

/** Takes `amountCents` off the balance only if it is still there; false when it is not. */
export async function debit(
  db: Queryable,
  voucherId: number,
  amountCents: number,
  checkoutId: number | null,
): Promise<boolean> {
  const updated = await db
    .update(vouchers)
    .set({ balanceCents: sql`${vouchers.balanceCents} - ${amountCents}` })
    // Voided in the meantime: the row lock makes a concurrent void and debit one after the other.
    .where(
      and(
        eq(vouchers.id, voucherId),
        gte(vouchers.balanceCents, amountCents),
        isNull(vouchers.voidedAt),
      ),
    )
    .returning({ id: vouchers.id });
  if (updated.length === 0) return false;
  await db.insert(voucherRedemptions).values({ voucherId, checkoutId, amountCents });
  return true;
}

/** Removes a voucher nobody paid for (its purchase was declined, in the same transaction). */
export async function deleteVoucher(db: Queryable, code: string): Promise<void> {
  await db.delete(vouchers).where(eq(vouchers.code, code));
}

/** The buyer's e-mail and whether they have a card with the active provider. */
export async function findBuyer(db: Queryable, userId: number, provider: string) {
  const [row] = await db
    .select({ email: users.email, card: cards.userId })
    .from(users)
    .leftJoin(cards, and(eq(cards.userId, users.id), eq(cards.provider, provider)))
    .where(eq(users.id, userId));
  return row ? { email: row.email, hasCard: row.card !== null } : null;
}
