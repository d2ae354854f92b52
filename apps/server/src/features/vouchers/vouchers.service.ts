import crypto from 'node:crypto';
import { VOUCHER_ALPHABET, VOUCHER_CODE_LENGTH, type Voucher } from '@paddock/contract/vouchers';
import type { Queryable } from '../../plugins/payments/charge-card';
import { NotFound } from '../../plugins/errors';
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

export async function createVoucher(
  db: Queryable,
  input: { amountCents: number; currency: string; createdById: number | null },
): Promise<Voucher> {
  for (;;) {
    const row = await repo.insertVoucher(db, {
      code: generateVoucherCode(),
      amountCents: input.amountCents,
      balanceCents: input.amountCents,
      currency: input.currency,
      createdById: input.createdById,
    });
    if (row) return { code: row.code, amount_cents: row.amountCents, currency: row.currency };
  }
}

export async function voucherBalance(
  db: Queryable,
  code: string,
): Promise<{ balance_cents: number; currency: string }> {
  const row = await repo.findByCode(db, normalizeVoucherCode(code));
  if (!row) throw new NotFound();
  return { balance_cents: row.balanceCents, currency: row.currency };
}

/** A voucher with something left on it, or null (unknown or spent). */
export async function findUsableVoucher(
  db: Queryable,
  code: string,
): Promise<{ id: number; code: string; balanceCents: number; currency: string } | null> {
  const row = await repo.findByCode(db, normalizeVoucherCode(code));
  if (!row || row.balanceCents <= 0) return null;
  return { id: row.id, code: row.code, balanceCents: row.balanceCents, currency: row.currency };
}

/** Debits the voucher for a checkout; false when its balance no longer covers the amount. */
export function redeemVoucher(
  db: Queryable,
  input: { voucherId: number; amountCents: number; checkoutId: number | null },
): Promise<boolean> {
  return repo.debit(db, input.voucherId, input.amountCents, input.checkoutId);
}
