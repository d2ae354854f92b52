import { z } from 'zod';
import { idNumber, idText } from './common';
import { slotKey } from './calendars';
import { reservation } from './reservations';

export { VOUCHER_REJECTED_MESSAGE } from './checkout-messages';

/** POST /reservations/checkouts/quote. Seats of one location; the voucher code is uppercased. */
export const quoteRequest = z
  .object({
    reservations: z
      .array(z.object({ slot: slotKey, calendar: idNumber }).strict())
      .min(1, 'Choose at least one time.')
      .max(96),
    voucher: z
      .string()
      .trim()
      .max(64)
      .transform((v) => v.toUpperCase())
      .nullable()
      .optional(),
  })
  .strict();
export type QuoteRequest = z.input<typeof quoteRequest>;

/** One slot of one seat (staff-side §3, exactly). `calendar_location` is the location id. */
export const lineItem = z.object({
  calendar_name: z.string(),
  calendar_type_name: z.string(),
  calendar_cost_cents: z.number().int(),
  calendar_qty: z.number().int(),
  calendar_total_cents: z.number().int(),
  calendar_booking_fee_cents: z.number().int(),
  calendar_location: z.number().int(),
  time: z.string(),
});
export type LineItem = z.infer<typeof lineItem>;

/**
 * subtotal = seats + fees; credits first (club), then the voucher (`discount_cents`);
 * pre_tax = subtotal − credits value − discount; tax = round-half-up(pre_tax × rate);
 * total = pre_tax + tax, charged to the saved card. `credits_program_saves`: what the club
 * would save on this checkout (its discount on seats plus the fees it waives).
 */
export const quoteResponse = z.object({
  checkout_id: z.number().int(),
  line_items: z.array(lineItem),
  subtotal_cents: z.number().int(),
  discount_cents: z.number().int(),
  pre_tax_cents: z.number().int(),
  sales_tax_cents: z.number().int(),
  total_cents: z.number().int(),
  booking_fees_threshold: z.number().int(),
  credits_using: z.number().int(),
  credits_value_cents: z.number().int(),
  credits_program_saves: z.number().int(),
  /** ISO 4217 code of every amount here: the location's. */
  currency: z.string().optional(),
  /** The cancellation policy for this booking, shown beside the terms link. */
  cancellation_policy: z.string().optional(),
});
export type QuoteResponse = z.infer<typeof quoteResponse>;

export const checkoutIdParam = z.object({ id: idText });

/**
 * POST /reservations/checkouts/{id}/process (no body). 200 when paid; a declined card answers
 * 402 {detail: provider message, code: 'payment_failed'} and leaves the reservations unpaid.
 * Processing again replays the first answer.
 */
export const processResponse = z.object({
  checkout_id: z.number().int(),
  /**
   * `awaiting_authentication`: the bank asks for 3-D Secure; run the challenge (Stripe.js
   * `handleNextAction` with `client_secret`, or go to `challenge_url`), then process again.
   */
  status: z.enum(['paid', 'failed', 'awaiting_authentication']),
  total_cents: z.number().int(),
  currency: z.string().optional(),
  reservations: z.array(reservation),
  post_booking_url: z.string(),
  client_secret: z.string().nullable().optional(),
  challenge_url: z.string().nullable().optional(),
});
export type ProcessResponse = z.infer<typeof processResponse>;
