import { z } from 'zod';
import { EMAIL_PATTERN } from './accounts';
import { authenticationAction } from './cards';
import { isoDate } from './calendars';
import { paginationQuery } from './common';

/** Voucher codes use an alphabet without 0/O/1/I; lookups ignore case, spaces and dashes. */
export const VOUCHER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 12;

export const VOUCHER_NAME_MAX = 100;
export const VOUCHER_MESSAGE_MAX = 200;
export const VOUCHER_VOID_REASON_MAX = 500;
export const VOUCHER_ISSUE_MAX_CENTS = 10_000_000;

const optionalEmail = z
  .union([
    z.literal(''),
    z.string().trim().max(254).regex(EMAIL_PATTERN, 'Enter a valid email address.'),
  ])
  .optional();

/**
 * POST /vouchers (staff): issue a voucher without a charge (comps, prizes), in the venue's default
 * currency. `expires_on` is the last day it can be spent, in the venue's time zone.
 */
export const voucherCreate = z
  .object({
    amount_cents: z.number().int().min(1).max(VOUCHER_ISSUE_MAX_CENTS),
    recipient_email: optionalEmail,
    recipient_name: z.string().trim().max(VOUCHER_NAME_MAX).optional(),
    message: z.string().trim().max(VOUCHER_MESSAGE_MAX).optional(),
    expires_on: isoDate.nullable().optional(),
  })
  .strict();
export type VoucherCreate = z.infer<typeof voucherCreate>;

/** Where a voucher stands: `voided` and `expired` win over what is left on it. */
export const VOUCHER_STATUSES = ['active', 'used', 'voided', 'expired'] as const;
export const voucherStatus = z.enum(VOUCHER_STATUSES);
export type VoucherStatus = z.infer<typeof voucherStatus>;

/** GET /vouchers (staff): `search` matches the code, purchaser's or recipient's e-mail or name. */
export const voucherListQuery = paginationQuery.extend({
  search: z.string().trim().max(100).optional(),
  status: voucherStatus.optional(),
});
export type VoucherListQuery = z.infer<typeof voucherListQuery>;

const person = z.object({ id: z.number().int(), email: z.string(), name: z.string() });

/** A voucher as the back office sees it. */
export const voucherAdmin = z.object({
  id: z.number().int(),
  code: z.string(),
  amount_cents: z.number().int(),
  balance_cents: z.number().int(),
  currency: z.string(),
  status: voucherStatus,
  /** `purchase`: bought with a card by `created_by`; `staff`: issued by `created_by`. */
  source: z.enum(['staff', 'purchase']),
  created_by: person.nullable(),
  recipient_email: z.string(),
  recipient_name: z.string(),
  from_name: z.string(),
  message: z.string(),
  expires_on: z.string().nullable(),
  created_at: z.string(),
  voided_at: z.string().nullable(),
  voided_by: person.nullable(),
  void_reason: z.string(),
});
export type VoucherAdmin = z.infer<typeof voucherAdmin>;

export const voucherRedemption = z.object({
  id: z.number().int(),
  amount_cents: z.number().int(),
  created_at: z.string(),
  checkout_id: z.number().int().nullable(),
  customer: person.nullable(),
});
export type VoucherRedemption = z.infer<typeof voucherRedemption>;

/** GET /vouchers/{id} (staff): the voucher and every redemption, newest first. */
export const voucherAdminDetail = voucherAdmin.extend({ redemptions: z.array(voucherRedemption) });
export type VoucherAdminDetail = z.infer<typeof voucherAdminDetail>;

/** POST /vouchers/{id}/void (staff): the reason is required and kept. */
export const voucherVoid = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1, 'Enter the reason for voiding this voucher.')
      .max(VOUCHER_VOID_REASON_MAX),
  })
  .strict();
export type VoucherVoid = z.infer<typeof voucherVoid>;

export const VOUCHER_VOIDED_MESSAGE = 'This voucher has been voided and can no longer be used.';
export const voucherExpiredMessage = (expiresOn: string) =>
  `This voucher expired on ${expiresOn} and can no longer be used.`;
export const VOUCHER_ALREADY_VOID_MESSAGE = 'This voucher is already void.';
export const VOUCHER_EXPIRY_PAST_MESSAGE = 'The expiry date cannot be in the past.';

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
  status: voucherStatus,
  expires_on: z.string().nullable(),
});
export type VoucherBalance = z.infer<typeof voucherBalance>;

/** Gift voucher purchase limits (spec §5, §9): whole dollars, $100 by default, comments ≤ 200. */
export const VOUCHER_DEFAULT_CENTS = 10_000;
export const VOUCHER_MIN_CENTS = 100;
export const VOUCHER_MAX_CENTS = 100_000;
export const VOUCHER_COMMENTS_MAX = 200;
/** A sender's name, as a person signs a card (issue 27: it goes into the venue's own mail). */
export const VOUCHER_FROM_NAME_MAX = 60;

/**
 * What mail clients turn into links: a scheme, `www.`, an e-mail address, or a host name under
 * a common top-level domain. The gift mail goes from the venue to any address the buyer types,
 * so a link in it would be the venue's name lent to someone else's page (issue 27).
 */
const LINK =
  /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:|[^\s@]+@[^\s@]+\.[a-z]{2,}|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|biz|io|co|me|app|xyz|ru|cn|tk|link|click|ly|gl|to|us|uk|de|fr|online|site|top|shop)\b/i;
export const NO_LINKS_MESSAGE = 'Links and e-mail addresses are not allowed here.';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // Past the limit it is refused anyway: the pattern never runs on a long text.
    .refine((text) => text.length > max || !LINK.test(text), NO_LINKS_MESSAGE)
    .nullable()
    .optional();

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
    email_to: optionalEmail.nullable(),
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

/**
 * The purchase's card asks for 3-D Secure (decision 0095): nothing is charged and no voucher
 * exists yet; after the challenge `POST /users/me/vouchers/purchases/{purchase}/complete`.
 */
export const voucherPurchaseAction = authenticationAction.extend({
  status: z.literal('requires_action'),
  purchase: z.number().int(),
});
export type VoucherPurchaseAction = z.infer<typeof voucherPurchaseAction>;
export const voucherPurchaseResponse = z.union([voucher, voucherPurchaseAction]);
export type VoucherPurchaseResponse = z.infer<typeof voucherPurchaseResponse>;

/** A purchase finished after its challenge: the voucher, and who its code was e-mailed to. */
export const voucherPurchased = voucher.extend({ email_to: z.string().nullable() });
export type VoucherPurchased = z.infer<typeof voucherPurchased>;
export const voucherPurchaseCompleteResponse = z.union([voucherPurchased, voucherPurchaseAction]);
export type VoucherPurchaseCompleteResponse = z.infer<typeof voucherPurchaseCompleteResponse>;
