import { and, count, desc, eq, gt, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { VoucherStatus } from '@paddock/contract/vouchers';
import type { Queryable } from '../../plugins/payments/charge-card';
import { checkouts, voucherRedemptions, vouchers } from '../../db/schema/booking';
import { users } from '../../db/schema/accounts';
import { containsPattern } from '../../lib/sql-text';

const creator = alias(users, 'creator');
const voider = alias(users, 'voider');

const personColumns = {
  creator: {
    id: creator.id,
    email: creator.email,
    firstName: creator.firstName,
    lastName: creator.lastName,
  },
  voider: {
    id: voider.id,
    email: voider.email,
    firstName: voider.firstName,
    lastName: voider.lastName,
  },
  customer: {
    id: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
  },
};

/** Not voided and not past its last day (`today` is the venue's date). */
const notExpired = (today: string) =>
  or(isNull(vouchers.expiresOn), sql`${vouchers.expiresOn} >= ${today}::date`);

function statusCondition(status: VoucherStatus, today: string): SQL | undefined {
  if (status === 'voided') return isNotNull(vouchers.voidedAt);
  if (status === 'expired')
    return and(isNull(vouchers.voidedAt), sql`${vouchers.expiresOn} < ${today}::date`);
  const live = and(isNull(vouchers.voidedAt), notExpired(today));
  return and(live, status === 'used' ? eq(vouchers.balanceCents, 0) : gt(vouchers.balanceCents, 0));
}

export type VoucherFilter = { search?: string; status?: VoucherStatus; today: string };

function where(filter: VoucherFilter): SQL | undefined {
  const words = (filter.search ?? '').split(/\s+/).filter(Boolean);
  const text = sql`(${vouchers.code} || ' ' || ${vouchers.recipientEmail} || ' ' || ${vouchers.recipientName} || ' ' || ${vouchers.fromName} || ' ' || coalesce(${creator.email}, '') || ' ' || coalesce(${creator.firstName}, '') || ' ' || coalesce(${creator.lastName}, ''))`;
  return and(
    filter.status ? statusCondition(filter.status, filter.today) : undefined,
    // A code is matched as typed or as stored (dashes and case ignored).
    ...words.map((w) =>
      or(
        ilike(text, containsPattern(w)),
        ilike(vouchers.code, containsPattern(w.toUpperCase().replace(/-/g, ''))),
      ),
    ),
  );
}

const selection = {
  voucher: vouchers,
  creator: personColumns.creator,
  voider: personColumns.voider,
};

const fromVouchers = (db: Queryable) =>
  db
    .select(selection)
    .from(vouchers)
    .leftJoin(creator, eq(creator.id, vouchers.createdById))
    .leftJoin(voider, eq(voider.id, vouchers.voidedById));

export type VoucherAdminRow = Awaited<ReturnType<typeof findVoucherById>>;

export async function countVouchers(db: Queryable, filter: VoucherFilter): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vouchers)
    .leftJoin(creator, eq(creator.id, vouchers.createdById))
    .where(where(filter));
  return row.n;
}

/** Newest first. */
export function listVouchers(db: Queryable, filter: VoucherFilter, limit: number, offset: number) {
  return fromVouchers(db)
    .where(where(filter))
    .orderBy(desc(vouchers.createdAt), desc(vouchers.id))
    .limit(limit)
    .offset(offset);
}

export async function findVoucherById(db: Queryable, id: number) {
  const [row] = await fromVouchers(db).where(eq(vouchers.id, id));
  return row ?? null;
}

/** The voucher's redemptions, newest first, with the customer whose checkout it paid for. */
export function listRedemptions(db: Queryable, voucherId: number) {
  return db
    .select({
      id: voucherRedemptions.id,
      amountCents: voucherRedemptions.amountCents,
      createdAt: voucherRedemptions.createdAt,
      checkoutId: voucherRedemptions.checkoutId,
      customer: personColumns.customer,
    })
    .from(voucherRedemptions)
    .leftJoin(checkouts, eq(checkouts.id, voucherRedemptions.checkoutId))
    .leftJoin(users, eq(users.id, checkouts.userId))
    .where(eq(voucherRedemptions.voucherId, voucherId))
    .orderBy(desc(voucherRedemptions.createdAt), desc(voucherRedemptions.id));
}

/** Voids it unless it already is; false then (or when there is no such voucher). */
export async function voidVoucher(
  db: Queryable,
  id: number,
  input: { reason: string; voidedById: number },
): Promise<boolean> {
  const rows = await db
    .update(vouchers)
    .set({ voidedAt: sql`now()`, voidReason: input.reason, voidedById: input.voidedById })
    .where(and(eq(vouchers.id, id), isNull(vouchers.voidedAt)))
    .returning({ id: vouchers.id });
  return rows.length > 0;
}
