import { z } from 'zod';
import { EMAIL_PATTERN } from '@paddock/contract/accounts';
import {
  VOUCHER_COMMENTS_MAX,
  VOUCHER_DEFAULT_CENTS,
  voucherPurchase,
  type VoucherPurchase,
} from '@paddock/contract/vouchers';

// Customer §5: voucher purchase rules. Limits and the server's own messages come from the
// contract; the client adds only what the form itself decides (the send-to toggle).
export const RECIPIENT_EMAIL_REQUIRED = "Enter the recipient's email address.";
export const RECIPIENT_EMAIL_INVALID = 'Enter a valid email address.';
export const SENDER_NAME_REQUIRED = 'Enter your name so the recipient knows who sent it.';
export const COMMENTS_TOO_LONG = `Comments can be at most ${VOUCHER_COMMENTS_MAX} characters.`;

/**
 * The amount field in whole dollars as cents: a non-integer or empty value counts as 100
 * dollars (10000 cents).
 */
export function voucherAmountCents(dollars: string): number {
  const trimmed = dollars.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isSafeInteger(value)) return VOUCHER_DEFAULT_CENTS;
  return value * 100;
}

export type VoucherFormValues = {
  amount: string;
  send_to: boolean;
  email_to: string;
  email_from_name: string;
  email_comments: string;
};

export const EMPTY_VOUCHER_FORM: VoucherFormValues = {
  amount: '',
  send_to: false,
  email_to: '',
  email_from_name: '',
  email_comments: '',
};

/** What the form sends: recipient details only when sending to someone. */
export function toPurchaseBody(values: VoucherFormValues): VoucherPurchase {
  const amount_cents = voucherAmountCents(values.amount);
  if (!values.send_to) return { amount_cents };
  const comments = values.email_comments.trim();
  return {
    amount_cents,
    email_to: values.email_to.trim(),
    email_from_name: values.email_from_name.trim(),
    ...(comments ? { email_comments: comments } : {}),
  };
}

/** The form's rules: the amount within the contract's range; sending needs email and name. */
export const voucherFormSchema = z
  .object({
    amount: z.string(),
    send_to: z.boolean(),
    email_to: z.string(),
    email_from_name: z.string(),
    email_comments: z.string(),
  })
  .superRefine((values, ctx) => {
    const amount = voucherPurchase.safeParse({ amount_cents: voucherAmountCents(values.amount) });
    if (!amount.success) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: amount.error.issues[0]!.message });
    }
    if (!values.send_to) return;
    const email = values.email_to.trim();
    if (!email)
      ctx.addIssue({ code: 'custom', path: ['email_to'], message: RECIPIENT_EMAIL_REQUIRED });
    else if (!EMAIL_PATTERN.test(email))
      ctx.addIssue({ code: 'custom', path: ['email_to'], message: RECIPIENT_EMAIL_INVALID });
    if (!values.email_from_name.trim())
      ctx.addIssue({ code: 'custom', path: ['email_from_name'], message: SENDER_NAME_REQUIRED });
    if (values.email_comments.trim().length > VOUCHER_COMMENTS_MAX)
      ctx.addIssue({ code: 'custom', path: ['email_comments'], message: COMMENTS_TOO_LONG });
  });
