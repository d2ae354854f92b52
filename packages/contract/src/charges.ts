import { z } from 'zod';
import { INT_MAX, idText, intText, paginationQuery } from './common';

/** How staff say money was taken at the desk (DESIGN §8; docs/decisions/0083). */
export const DESK_METHODS = ['cash', 'terminal', 'bank_transfer', 'other'] as const;
export const deskMethod = z.enum(DESK_METHODS);
export type DeskMethod = z.infer<typeof deskMethod>;
/** `card`: through the card provider (online or the saved card); the rest at the desk. */
export const PAYMENT_METHODS = ['card', ...DESK_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  cash: 'Cash',
  terminal: 'Card terminal',
  bank_transfer: 'Bank transfer',
  other: 'Other',
};
/** How money moved at the desk, in a sentence: "took $5 in cash", "given back by bank transfer". */
export const DESK_METHOD_PHRASES: Record<DeskMethod, string> = {
  cash: 'in cash',
  terminal: 'on the card terminal',
  bank_transfer: 'by bank transfer',
  other: 'another way',
};

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
  /** How it was paid: `card` through the provider, or the desk method staff recorded. */
  method: z.enum(PAYMENT_METHODS),
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

/**
 * `POST /users/me/charges/{id}/authenticate`: a charge made without the customer that their
 * bank wants authenticated (decision 0085): the challenge to run (then ask again), or paid.
 */
export const authenticateChargeResponse = z.object({
  status: z.enum(['requires_action', 'paid']),
  client_secret: z.string().nullable(),
  challenge_url: z.string().nullable(),
});
export type AuthenticateChargeResponse = z.infer<typeof authenticateChargeResponse>;
