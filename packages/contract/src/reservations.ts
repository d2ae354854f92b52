import { z } from 'zod';
import { authenticationAction } from './cards';
import { idNumber, idText, paginationQuery, queryBoolean, userRef } from './common';
import { slotKey } from './calendars';

/** The taken-seat answer (400 non_field_errors); the web shows its own wording for it. */
export const SLOT_TAKEN_MESSAGE = 'The fields calendar, slot must make a unique set.';

export const reservation = z.object({
  id: z.number().int(),
  /** Start instant with the location's offset. */
  time: z.string(),
  calendar: z.number().int(),
  /** Seat-local start `YYYY-MM-DDTHH:mm`. */
  slot: z.string(),
  subscription: z.number().int().nullable(),
  paid: z.boolean(),
  /** Paid with club credits (a club booking, or a checkout that spent credits). */
  paid_with_credits: z.boolean(),
  calendar_name: z.string(),
  location: z.number().int(),
  /** The venue's IANA zone: `time` and `slot` are its wall clock. */
  timezone: z.string(),
  location_name: z.string(),
  /** ISO 4217 code `amount_cents` is in (the location's). */
  currency: z.string(),
  user: z.number().int().nullable(),
  /** The driver's display name (staff planner); null for blackouts. */
  user_display_name: z.string().nullable(),
  is_blackout: z.boolean(),
  notes: z.string(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  checkout: z.number().int().nullable(),
  /** Owed while unpaid. */
  amount_cents: z.number().int(),
  /** 30, or the whole run when the list is asked with group_base. */
  duration_minutes: z.number().int(),
  /** Ids of the reservations this entry stands for (one unless grouped). */
  reservation_ids: z.array(z.number().int()),
});
export type Reservation = z.infer<typeof reservation>;

/**
 * GET /reservations. Customers always get their own. `future` = not over yet;
 * `group_base` merges back-to-back slots of one driver on one seat into one entry.
 */
export const reservationsQuery = paginationQuery.extend({
  user: idText.optional(),
  calendar: idText.optional(),
  future: queryBoolean.optional(),
  group_base: queryBoolean.optional(),
  slot__startswith: z
    .string()
    .regex(
      /^\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2})?)?)?)?$/,
      'Enter the start of a slot, e.g. 2026-11-21.',
    )
    .optional(),
  is_blackout: queryBoolean.optional(),
  paid: queryBoolean.optional(),
  ordering: z.enum(['slot', '-slot', 'time', '-time']).default('slot'),
});
export type ReservationsQuery = z.input<typeof reservationsQuery>;

export const futureReservationsQuery = paginationQuery.extend({
  group_base: queryBoolean.optional(),
  future: queryBoolean.optional(),
});

/**
 * POST /reservations. `slot` (or `time`, from which the slot is derived) and `calendar`.
 * Staff with reservations.change_reservation may also set `user`, `is_blackout`, `notes`, `paid`.
 */
const reservationFields = z
  .object({
    calendar: idNumber,
    slot: slotKey.optional(),
    time: z.iso.datetime({ offset: true, message: 'Enter an ISO 8601 date and time.' }).optional(),
    subscription: idNumber.nullable().optional(),
    user: idNumber.nullable().optional(),
    is_blackout: z.boolean().optional(),
    notes: z.string().trim().max(1000).optional(),
    paid: z.boolean().optional(),
  })
  .strict();
/** The document says what the service requires: `slot`, or `time` to derive it from. */
export const reservationCreate = reservationFields.meta({
  anyOf: [{ required: ['slot'] }, { required: ['time'] }],
});
export type ReservationCreate = z.infer<typeof reservationCreate>;

/** PATCH (PUT also) /reservations/{id}: move it, or (staff) change the other fields. */
export const reservationUpdate = reservationFields.partial().strict();
export type ReservationUpdate = z.infer<typeof reservationUpdate>;

/** `currency`: ISO 4217 of the item's location (docs/decisions/0039). */
export const balanceItem = z.object({
  description: z.string(),
  amount_cents: z.number().int(),
  currency: z.string(),
});
/** `currency`: the items' one currency (the first item's if they differ; then capture charges each). */
export const balance = z.object({
  amount_cents: z.number().int(),
  currency: z.string(),
  detail: z.array(balanceItem),
});
export type Balance = z.infer<typeof balance>;

/** Staff spec §3 "Cost breakdown": what the card would be charged for, item by item (cents). */
export const costItem = z.object({
  description: z.string(),
  qty: z.number().int(),
  amount_each: z.number().int(),
  amount: z.number().int(),
});
export const costBreakdown = z.object({
  total: z.number().int(),
  currency: z.string(),
  items: z.array(costItem),
});
export type CostBreakdown = z.infer<typeof costBreakdown>;

export const userIdParam = z.object({
  id: userRef,
});

export const CLEARED_OUTSTANDING_MESSAGE = 'All outstanding line items have been marked as Paid';

/** capture_outstanding's answer once the card paid the balance. */
export const OUTSTANDING_PAID_MESSAGE = 'The outstanding balance has been paid.';

export const captureOutstandingResponse = z.object({
  detail: z.string(),
  amount_cents: z.number().int(),
});
export type CaptureOutstandingResponse = z.infer<typeof captureOutstandingResponse>;
/**
 * The bank asks the customer to authenticate the payment (decision 0099): nothing is paid yet;
 * after the challenge the same call answers how it ended.
 */
export const captureOutstandingAction = authenticationAction.extend({
  status: z.literal('requires_action'),
});
export type CaptureOutstandingAction = z.infer<typeof captureOutstandingAction>;
export const captureOutstandingAnswer = z.union([
  captureOutstandingResponse,
  captureOutstandingAction,
]);
export type CaptureOutstandingAnswer = z.infer<typeof captureOutstandingAnswer>;
