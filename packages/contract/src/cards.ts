import { z } from 'zod';
import { userRef } from './common';

/** The saved card; `{}` means no card. */
export const savedCard = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  postal_code: z.string().nullable(),
});
export type SavedCard = z.infer<typeof savedCard>;
export const card = z.union([savedCard, z.object({}).strict()]);

/**
 * The bank asks for 3-D Secure: Stripe.js `handleNextAction({clientSecret})` shows its
 * challenge, or the browser goes to the local provider's `challenge_url`, which comes back
 * with `?setup_intent=…` / `?payment_intent=…`.
 */
export const authenticationAction = z.object({
  client_secret: z.string().nullable(),
  challenge_url: z.string().nullable(),
});
export type AuthenticationAction = z.infer<typeof authenticationAction>;

/** `POST /users/{id}/card` when the card's bank asks for 3-D Secure before it is saved. */
export const cardSetupAction = authenticationAction.extend({
  status: z.literal('requires_action'),
  setup_intent: z.string(),
});
export type CardSetupAction = z.infer<typeof cardSetupAction>;
export const saveCardResponse = z.union([savedCard, cardSetupAction]);
export type SaveCardResponse = z.infer<typeof saveCardResponse>;
export type Card = z.infer<typeof card>;

/** `/users/{id}/card`: a user id, or `me` for the signed-in user. */
export const cardUserParam = z.object({
  id: userRef,
});

/**
 * A client-side token from the card provider's form (local `tok_…`, Stripe `tok_…` or `pm_…`),
 * or, once the bank's 3-D Secure challenge is over, the SetupIntent that answered
 * `requires_action` (`seti_…`): the card is saved only when that setup succeeded.
 */
export const addCardRequest = z
  .object({
    token: z.string().trim().min(1, 'This field may not be blank.').max(255).optional(),
    setup_intent: z.string().trim().min(1, 'This field may not be blank.').max(255).optional(),
    /** The page the card is entered on: a bank's challenge page comes back to it (ours only). */
    return_url: z.string().max(2000).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.token === undefined && body.setup_intent === undefined)
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'This field is required.' });
    else if (body.token !== undefined && body.setup_intent !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['setup_intent'],
        message: 'Send either a token or a setup_intent, not both.',
      });
  });
export type AddCardRequest = z.infer<typeof addCardRequest>;

// Stripe's own wording, so the local form reads like Stripe Elements.
export const CARD_NUMBER_INVALID = 'Your card number is invalid.';
export const CARD_EXPIRY_INVALID = "Your card's expiration date is invalid.";
export const CARD_CVC_INVALID = "Your card's security code is invalid.";
export const CARD_DECLINED = 'Your card was declined.';
export const CARD_INSUFFICIENT_FUNDS = 'Your card has insufficient funds.';

/** Card numbers may be typed with spaces or dashes. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** 13–19 digits passing the Luhn check. */
export function isValidCardNumber(number: string): boolean {
  const digits = cardDigits(number);
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand as Stripe names it for display, from the number's prefix. */
export function cardBrand(number: string): string {
  const d = cardDigits(number);
  if (/^4/.test(d)) return 'Visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(d)) return 'Mastercard';
  if (/^3[47]/.test(d)) return 'American Express';
  if (/^(6011|64[4-9]|65)/.test(d)) return 'Discover';
  return 'Unknown';
}

/** Two-digit years (`29`) mean 2029, as on the card. */
export function fullExpiryYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** A card is good through the last day of its expiry month. */
export function isExpired(month: number, year: number, now = new Date()): boolean {
  const y = fullExpiryYear(year);
  const nowYear = now.getUTCFullYear();
  return y < nowYear || (y === nowYear && month < now.getUTCMonth() + 1);
}

const required = (message: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined ? 'This field is required.' : message,
});
const expiryPart = z.coerce.number(required(CARD_EXPIRY_INVALID)).int(CARD_EXPIRY_INVALID);

/**
 * The local provider's tokenization call, shaped like Stripe's. Every check uses Stripe's
 * message on one field: number; exp_month for a month outside 1–12; exp_year for a date in
 * the past or too far ahead; cvc.
 */
export const localTokenRequest = z
  .object({
    number: z
      .string(required(CARD_NUMBER_INVALID))
      .max(40, CARD_NUMBER_INVALID)
      .refine(isValidCardNumber, CARD_NUMBER_INVALID),
    exp_month: expiryPart.min(1, CARD_EXPIRY_INVALID).max(12, CARD_EXPIRY_INVALID),
    exp_year: expiryPart.max(9999, CARD_EXPIRY_INVALID),
    cvc: z
      .string(required(CARD_CVC_INVALID))
      .trim()
      .regex(/^\d{3,4}$/, CARD_CVC_INVALID),
    postal_code: z.string().trim().max(16).nullable().optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const year = fullExpiryYear(value.exp_year);
    const tooFar = year > new Date().getUTCFullYear() + 50;
    if (tooFar || isExpired(value.exp_month, value.exp_year)) {
      ctx.addIssue({ code: 'custom', path: ['exp_year'], message: CARD_EXPIRY_INVALID });
    }
  });
export type LocalTokenRequest = z.infer<typeof localTokenRequest>;
export const localTokenResponse = z.object({ id: z.string() });
export type LocalTokenResponse = z.infer<typeof localTokenResponse>;
