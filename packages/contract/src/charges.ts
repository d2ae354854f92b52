import { z } from 'zod';
import { INT_MAX, idText, intText, paginationQuery } from './common';

/** One attempt to charge a saved card (spec: Charge). `errors` is '' unless it failed. */
export const charge = z.object({
  id: z.number().int(),
  /** Dollars with two decimals, e.g. "12.50". */
  amount: z.string(),
  amount_cents: z.number().int(),
  /** ISO 4217 code the card was charged in. */
  currency: z.string(),
  notes: z.string(),
  errors: z.string(),
  receipt_url: z.string().nullable(),
  /** ISO 8601 instant. */
  created: z.string(),
  /** The payment provider's reference; null when the charge never reached it. */
  charge_id: z.string().nullable(),
  /** On a refund line: the refund it belongs to (staff retry a declined one); else null. */
  refund: z.number().int().nullable().optional(),
});
export type Charge = z.infer<typeof charge>;

/** `GET /users/me/charges`: newest first; staff with user.change_user may pass `user`. */
export const chargesQuery = paginationQuery.extend({
  amount_cents__gt: intText(-INT_MAX).optional(),
  user: idText.optional(),
});
export type ChargesQuery = z.infer<typeof chargesQuery>;

export const NO_PAYMENT_METHOD = 'No payment method on file.';

/** 1250 → "12.50"; -5 → "-0.05". */
export function centsToDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
