import { z } from 'zod';
import { EMAIL_PATTERN } from './accounts';

/** Voucher codes use an alphabet without 0/O/1/I; lookups ignore case, spaces and dashes. */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 12;

/** POST /vouchers (staff): issue a voucher without a charge (comps, tests). */
export const voucherCreate = z
  .object({ amount_cents: z.number().int().min(1).max(10_000_000) })
  .strict();
export type VoucherCreate = z.infer<typeof voucherCreate>;

/** `currency`: ISO 4217, the venue's default currency when it was issued. */
export const voucher = z.object({
  code: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
});
export type Voucher = z.infer<typeof voucher>;

export const voucherCodeParam = z.object({ code: z.string().trim().min(1).max(64) });

export const voucherBalance = z.object({
  balance_cents: z.number().int(),
  currency: z.string(),
});
export type VoucherBalance = z.infer<typeof voucherBalance>;

/** Gift voucher purchase limits (spec §5, §9): whole dollars, $100 by default, comments ≤ 200. */
export const VOUCHER_DEFAULT_CENTS = 10_000;
export const VOUCHER_MIN_CENTS = 100;
export const VOUCHER_MAX_CENTS = 100_000;
export const VOUCHER_COMMENTS_MAX = 200;
export const VOUCHER_FROM_NAME_MAX = 100;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/**
 * POST /users/me/vouchers/purchase. Without `email_to` the code is e-mailed to the buyer; with
 * it, to the recipient, and the sender's name is required.
 */
export const voucherPurchase = z
  .object({
    amount_cents: z
      .number()
      .int('Enter a whole number of dollars.')
      .min(VOUCHER_MIN_CENTS, 'The smallest voucher is $1.')
      .max(VOUCHER_MAX_CENTS, 'The largest voucher is $1000.')
      .refine((cents) => cents % 100 === 0, 'Enter a whole number of dollars.')
      .default(VOUCHER_DEFAULT_CENTS),
    email_to: z
      .union([
        z.literal(''),
        z.string().trim().max(254).regex(EMAIL_PATTERN, 'Enter a valid email address.'),
      ])
      .nullable()
      .optional(),
    email_from_name: optionalText(VOUCHER_FROM_NAME_MAX),
    email_comments: optionalText(VOUCHER_COMMENTS_MAX),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.email_to && !value.email_from_name)
      ctx.addIssue({
        code: 'custom',
        path: ['email_from_name'],
        message: 'Enter your name so the recipient knows who sent it.',
      });
  });
export type VoucherPurchase = z.infer<typeof voucherPurchase>;
