import {
  VOUCHER_ALREADY_VOID_MESSAGE,
  VOUCHER_EXPIRY_PAST_MESSAGE,
  type VoucherAdmin,
  type VoucherAdminDetail,
  type VoucherCreate,
  type VoucherListQuery,
} from '@paddock/contract/vouchers';
import type { Paginated } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import { getSettings } from '../../plugins/settings';
import { recordAudit } from '../audit/audit.service';
import * as repo from './vouchers-admin.repo';
import { createVoucher, venueToday, voucherStatusOf } from './vouchers.service';

/**
 * The back office's vouchers: list and search, issue, void with a reason, and see where one was
 * spent. Voiding keeps the row and its balance; checkout refuses it (`findUsableVoucher`).
 */

type Person = {
  id: number | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
};

const personOf = (p: Person | null) =>
  p === null || p.id === null
    ? null
    : {
        id: p.id,
        email: p.email ?? '',
        name: [p.firstName, p.lastName].filter(Boolean).join(' '),
      };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toAdmin(row: NonNullable<repo.VoucherAdminRow>, today: string): VoucherAdmin {
  const v = row.voucher;
  return {
    id: v.id,
    code: v.code,
    amount_cents: v.amountCents,
    balance_cents: v.balanceCents,
    currency: v.currency,
    status: voucherStatusOf(v, today),
    source: v.source === 'purchase' ? 'purchase' : 'staff',
    created_by: personOf(row.creator),
    recipient_email: v.recipientEmail,
    recipient_name: v.recipientName,
    from_name: v.fromName,
    message: v.message,
    expires_on: v.expiresOn,
    created_at: v.createdAt.toISOString(),
    voided_at: iso(v.voidedAt),
    voided_by: personOf(row.voider),
    void_reason: v.voidReason,
  };
}

export async function listVouchers(
  db: Db,
  query: VoucherListQuery,
): Promise<Paginated<VoucherAdmin>> {
  const today = venueToday();
  const filter = { search: query.search, status: query.status, today };
  const page = await paginate(
    query,
    () => repo.countVouchers(db, filter),
    (limit, offset) => repo.listVouchers(db, filter, limit, offset),
  );
  return { ...page, results: page.results.map((row) => toAdmin(row, today)) };
}

export async function getVoucher(db: Db, id: number): Promise<VoucherAdminDetail> {
  const row = await repo.findVoucherById(db, id);
  if (!row) throw new NotFound();
  const redemptions = await repo.listRedemptions(db, id);
  return {
    ...toAdmin(row, venueToday()),
    redemptions: redemptions.map((r) => ({
      id: r.id,
      amount_cents: r.amountCents,
      created_at: r.createdAt.toISOString(),
      checkout_id: r.checkoutId,
      customer: personOf(r.customer),
    })),
  };
}

/** Issues a voucher in the venue's default currency, audited as `voucher.issue`. */
export async function issueVoucher(
  db: Db,
  staff: AuthUser,
  body: VoucherCreate,
): Promise<VoucherAdminDetail> {
  if (body.expires_on && body.expires_on < venueToday())
    throw ValidationError.field('expires_on', VOUCHER_EXPIRY_PAST_MESSAGE);
  const { default_currency } = await getSettings(db);
  const id = await db.transaction(async (tx) => {
    const voucher = await createVoucher(tx, {
      amountCents: body.amount_cents,
      currency: default_currency,
      createdById: staff.id,
      source: 'staff',
      recipientEmail: body.recipient_email ?? '',
      recipientName: body.recipient_name ?? '',
      message: body.message ?? '',
      expiresOn: body.expires_on ?? null,
    });
    await recordAudit(tx, staff, {
      action: 'voucher.issue',
      targetType: 'voucher',
      targetId: voucher.id,
      after: { code: voucher.code, amount_cents: voucher.amount_cents },
    });
    return voucher.id;
  });
  return getVoucher(db, id);
}

/** Voids a voucher for good, keeping the reason; audited as `voucher.void`. */
export async function voidVoucher(
  db: Db,
  staff: AuthUser,
  id: number,
  reason: string,
): Promise<VoucherAdminDetail> {
  await db.transaction(async (tx) => {
    const row = await repo.findVoucherById(tx, id);
    if (!row) throw new NotFound();
    if (!(await repo.voidVoucher(tx, id, { reason, voidedById: staff.id })))
      throw ValidationError.nonField(VOUCHER_ALREADY_VOID_MESSAGE);
    await recordAudit(tx, staff, {
      action: 'voucher.void',
      targetType: 'voucher',
      targetId: id,
      before: { code: row.voucher.code, balance_cents: row.voucher.balanceCents },
      after: { code: row.voucher.code, reason },
    });
  });
  return getVoucher(db, id);
}
