import { z } from 'zod';

/** Voucher codes use an alphabet without 0/O/1/I; lookups ignore case, spaces and dashes. */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 12;

/** POST /vouchers (staff): issue a voucher without a charge (comps, tests). */
export const voucherCreate = z
  .object({ amount_cents: z.number().int().min(1).max(10_000_000) })
  .strict();
export type VoucherCreate = z.infer<typeof voucherCreate>;

export const voucher = z.object({ code: z.string(), amount_cents: z.number().int() });
export type Voucher = z.infer<typeof voucher>;

export const voucherCodeParam = z.object({ code: z.string().trim().min(1).max(64) });

export const voucherBalance = z.object({ balance_cents: z.number().int() });
export type VoucherBalance = z.infer<typeof voucherBalance>;
