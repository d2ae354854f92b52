import { z } from 'zod';
import { idNumber, idText, queryBoolean } from './common';
import { slotKey as realSlotKey } from './calendars';

/** How a cancelled booking's money goes back (docs/decisions/0027-cancellations-and-refunds.md). */
export const REFUND_CHOICES = ['policy', 'full', 'none'] as const;
export const refundChoice = z.enum(REFUND_CHOICES);
export type RefundChoice = z.infer<typeof refundChoice>;

export const DEFAULT_LATE_CANCELLATION_KEEP_PERCENT = 100;

export { cancellationPolicyText } from './refund-policy';

const cents = z.number().int();

/** What comes back, and how: to the card, credits to the balance, value to the voucher. */
export const refundBreakdown = z.object({
  card_cents: cents,
  /** Part of card_cents. */
  tax_cents: cents,
  /** Booking fees inside what comes back. */
  fee_cents: cents,
  credits: z.number().int(),
  credits_cents: cents,
  /** True when credits wait for the membership to be in good standing again. */
  credits_wait: z.boolean(),
  voucher_cents: cents,
  /** The voucher's code, shown to its owner only (last four characters). */
  voucher_hint: z.string().nullable(),
  total_cents: cents,
  kept_cents: cents,
  /** One line per way the money goes back, e.g. "$22.50 back to your Visa ending 4242". */
  lines: z.array(z.string()),
});
export type RefundBreakdown = z.infer<typeof refundBreakdown>;

/** `GET /reservations/{id}/cancel_quote`: what cancelling now would give back. */
export const cancelQuote = z.object({
  reservation: z.number().int(),
  choice: refundChoice,
  /** Free until this instant (ISO 8601); later the late share is kept. */
  free_until: z.string(),
  free: z.boolean(),
  policy_text: z.string(),
  paid_cents: cents,
  refund: refundBreakdown,
});
export type CancelQuote = z.infer<typeof cancelQuote>;

export const cancelQuoteQuery = z.object({ refund: refundChoice.optional() }).strict();

/** `POST /reservations/{id}/cancel`. Customers: policy only; staff choose (no refund needs a reason). */
export const cancelRequest = z
  .object({
    refund: refundChoice.default('policy'),
    reason: z.string().trim().max(500).default(''),
  })
  .strict();
export type CancelRequest = z.input<typeof cancelRequest>;

export const refundView = z.object({
  id: z.number().int(),
  reservation: z.number().int(),
  choice: z.string(),
  reason: z.string(),
  card_status: z.enum(['none', 'pending', 'succeeded', 'failed']),
  last_error: z.string(),
  refund: refundBreakdown,
  created: z.string(),
});
export type RefundView = z.infer<typeof refundView>;

export const cancelResponse = z.object({ detail: z.string(), refund: refundView.nullable() });
export type CancelResponse = z.infer<typeof cancelResponse>;

export const REASON_REQUIRED = 'Give a reason for cancelling without a refund.';
export const ALREADY_CANCELLED = 'This reservation is already cancelled.';
export const CANCELLED_MESSAGE = 'Your reservation is cancelled.';
/** A change to a booking whose payment waits for the customer's bank (3-D Secure, issue 40). */
export const PAYMENT_WAITING_MESSAGE =
  "This booking's payment is waiting for the bank's check. Finish it, or cancel the booking, first.";
/** A cancel that stopped the payment at the provider before the bank's check was answered. */
export const PAYMENT_STOPPED_MESSAGE =
  "Your reservation is cancelled. Its payment was still waiting for the bank's check: it was stopped, and nothing was charged.";
export const OTHER_SEATS_LET_GO = 'The other seats booked with it were let go too.';

export { slotIsFull } from './booking-words';

/** `POST /waitlist`: tell me when a seat at this location and slot frees up. */
export const waitlistRequest = z.object({ location: idNumber, slot: realSlotKey }).strict();
export type WaitlistRequest = z.infer<typeof waitlistRequest>;

/**
 * One of the caller's waitlist entries (`GET /waitlist`): `waiting` with its place in line, or
 * `offered` with the seat held for them until `hold_until`.
 */
export const waitlistEntry = z.object({
  id: z.number().int(),
  location: z.number().int(),
  location_name: z.string(),
  slot: z.string(),
  /** The slot's start instant (ISO 8601). */
  time: z.string(),
  status: z.enum(['waiting', 'offered']),
  position: z.number().int().nullable(),
  hold_until: z.string().nullable(),
  calendar: z.number().int().nullable(),
  calendar_name: z.string().nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntry>;
export const waitlistList = z.array(waitlistEntry);
export const LEFT_WAITLIST_MESSAGE = 'You left the waitlist.';

const slotKey = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Enter a real date and time.');

/**
 * `POST /reservations/{id}/move`: to another free seat or time at the same location, inside the
 * free cancellation window, keeping the payment (docs/decisions/0034-refunds-rest.md). `run`:
 * the booking's whole run moves with it (the customer's half-hours next to each other on its
 * seat), each half-hour keeping its place in the run, this one landing on `slot`; a seat type
 * with a minimum (VR: 2 hours) moves only so (docs/decisions/0112).
 */
export const moveRequest = z
  .object({ calendar: idNumber.optional(), slot: slotKey.optional(), run: z.boolean().optional() })
  .strict();
/** Both are needed; optional in the schemas so that someone else's booking is a 404 before a 400. */
export type MoveRequest = { calendar: number; slot: string; run?: boolean };
export const moveQuoteQuery = z
  .object({
    calendar: idText.optional(),
    slot: slotKey.optional(),
    run: queryBoolean.optional(),
  })
  .strict();

/**
 * What the move would do: the price difference and, for a cheaper seat, what comes back; for a
 * dearer one, what the card is charged (docs/decisions/0040-move-to-a-dearer-seat.md).
 */
export const moveQuote = z.object({
  reservation: z.number().int(),
  calendar: z.number().int(),
  calendar_name: z.string(),
  slot: z.string(),
  /** New price less the old one (tax included): below 0 comes back, as it was paid. */
  price_difference_cents: cents,
  /** A paid booking moving to a dearer seat: what the saved card is charged (else 0). */
  charge_cents: cents,
  refund: refundBreakdown.nullable(),
  /** What happens to the money, in words ("Same price: your payment moves with the booking."). */
  lines: z.array(z.string()),
});
export type MoveQuote = z.infer<typeof moveQuote>;

export const moveResponse = z.object({
  detail: z.string(),
  reservation: z.number().int(),
  calendar: z.number().int(),
  slot: z.string(),
  /** What the saved card was charged for a dearer seat (0 when nothing was charged). */
  charge_cents: cents,
  /** This half-hour's refund of a cheaper seat (`refunds` holds every one a run move made). */
  refund: refundView.nullable(),
  /** Every half-hour that moved: this one, and with `run` the rest of its run. */
  reservation_ids: z.array(z.number().int()),
  refunds: z.array(refundView),
});
export type MoveResponse = z.infer<typeof moveResponse>;

export const MOVED_MESSAGE = 'Your booking has moved.';
export const SAME_PRICE_LINE = 'Same price: your payment moves with the booking.';
export const DEARER_SEAT_MESSAGE = 'Choose a seat that costs the same or less.';
export const SAME_LOCATION_MESSAGE = 'Choose a seat at the same location.';
export const SAME_SLOT_MESSAGE = 'Choose another time or seat.';
