import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import { VENUE_TIMEZONE } from '@paddock/contract/venue';
import {
  VOUCHER_ALPHABET,
  VOUCHER_CODE_LENGTH,
  VOUCHER_VOIDED_MESSAGE,
  voucherExpiredMessage,
  type Voucher,
  type VoucherBalance,
  type VoucherStatus,
} from '@paddock/contract/vouchers';
import type { Queryable } from '../../plugins/payments/charge-card';
import { NotFound, ValidationError } from '../../plugins/errors';
import * as repo from './vouchers.repo';

/**
 * Gift vouchers: issue, look up, redeem. The purchase flow (charge, e-mail to a recipient) builds
 * on `createVoucher`; checkout uses `findUsableVoucher` and `redeemVoucher`.
 */

/** 12 characters from a 32-letter alphabet without 0/O/1/I: 60 random bits. */
export function generateVoucherCode(): string {
  let code = '';
  for (let i = 0; i < VOUCHER_CODE_LENGTH; i += 1)
    code += VOUCHER_ALPHABET[crypto.randomInt(VOUCHER_ALPHABET.length)];
  return code;
}

/** What a person typed → the stored form: uppercase, no spaces or dashes. */
export function normalizeVoucherCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}

/** Who it is for and from, its message and last day: all optional. */
export type VoucherExtras = {
  source?: 'staff' | 'purchase';
  recipientEmail?: string;
  recipientName?: string;
  fromName?: string;
  message?: string;
  expiresOn?: string | null;
};

export async function createVoucher(
  db: Queryable,
  input: {
    amountCents: number;
    currency: string;
    createdById: number | null;
    /** Drawn already (a purchase's, decision 0095); otherwise drawn here. */
    code?: string;
  } & VoucherExtras,
): Promise<Voucher & { id: number }> {
  const { amountCents, code, ...rest } = input;
  for (;;) {
    const row = await repo.insertVoucher(db, {
      ...rest,
      code: code ?? generateVoucherCode(),
      amountCents,
      balanceCents: amountCents,
    });
    if (row)
      return { id: row.id, code: row.code, amount_cents: row.amountCents, currency: row.currency };
    if (code) throw new Error('a purchase drew the code of an existing voucher');
  }
}

/** Today's date where the venue is: a voucher can be spent through its `expiresOn` day. */
export const venueToday = (now = DateTime.now()) => now.setZone(VENUE_TIMEZONE).toISODate()!;

type StatusFields = Pick<repo.VoucherRow, 'voidedAt' | 'expiresOn' | 'balanceCents'>;

export function voucherStatusOf(row: StatusFields, today = venueToday()): VoucherStatus {
  if (row.voidedAt) return 'voided';
  if (row.expiresOn && row.expiresOn < today) return 'expired';
  return row.balanceCents > 0 ? 'active' : 'used';
}

export async function voucherBalance(db: Queryable, code: string): Promise<VoucherBalance> {
  const row = await repo.findByCode(db, normalizeVoucherCode(code));
  if (!row) throw new NotFound();
  return {
    balance_cents: row.balanceCents,
    currency: row.currency,
    status: voucherStatusOf(row),
    expires_on: row.expiresOn,
  };
}

/**
 * A voucher with something left on it, or null (unknown or spent). A voided or expired one is
 * refused with its own 400 on `voucher`, so the customer learns why.
 */
export async function findUsableVoucher(
  db: Queryable,
  code: string,
): Promise<{ id: number; code: string; balanceCents: number; currency: string } | null> {
  const row = await repo.findByCode(db, normalizeVoucherCode(code));
  if (!row) return null;
  const status = voucherStatusOf(row);
  if (status === 'voided') throw ValidationError.field('voucher', VOUCHER_VOIDED_MESSAGE);
  if (status === 'expired')
    throw ValidationError.field('voucher', voucherExpiredMessage(row.expiresOn!));
  if (status === 'used') return null;
  return { id: row.id, code: row.code, balanceCents: row.balanceCents, currency: row.currency };
}

/** Debits the voucher for a checkout; false when its balance no longer covers the amount. */
export function redeemVoucher(
  db: Queryable,
  input: { voucherId: number; amountCents: number; checkoutId: number | null },
): Promise<boolean> {
  return repo.debit(db, input.voucherId, input.amountCents, input.checkoutId);
}
