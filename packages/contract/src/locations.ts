import { z } from 'zod';
import { safeUrl } from './common';
import { currencyCode } from './money';

/** Local wall-clock time `HH:mm` (00:00–23:59). */
export const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:mm (00:00 to 23:59).');

/** One opening range; `close` at or before `open` means it closes after midnight. */
export const hoursRange = z.object({ open: timeOfDay, close: timeOfDay }).strict();
export type HoursRange = z.infer<typeof hoursRange>;

const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;

/** Weekly hours: weekday "1" (Monday) … "7" (Sunday) → ranges; a missing or empty day is closed. */
export const openingHours = z.partialRecord(z.enum(WEEKDAYS), z.array(hoursRange).max(8));
export type OpeningHours = z.infer<typeof openingHours>;

/** Date overrides: "YYYY-MM-DD" → ranges replacing that day's hours; `[]` closes the date. */
export const specialHours = z.record(
  z.iso.date({ message: 'Use dates as YYYY-MM-DD.' }),
  z.array(hoursRange).max(8),
);
export type SpecialHours = z.infer<typeof specialHours>;

export const location = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  /** IANA time zone; every slot key is local to it. */
  timezone: z.string(),
  /** ISO 4217 code its seats are priced and charged in. */
  currency: z.string(),
  /** Percent, e.g. 8.875. */
  sales_tax_rate_percent: z.number(),
  /** Booking fee per 30-minute slot. */
  booking_fee_cents: z.number().int(),
  /** Fees are waived when one checkout books at least 30 × this many minutes. */
  booking_fees_threshold: z.number().int(),
  post_booking_url: z.string(),
  /** This location's cancellation policy overrides; null: the venue's settings. */
  cancellation_window_hours: z.number().int().nullable(),
  late_cancellation_keep_percent: z.number().int().nullable(),
  opening_hours: openingHours,
  special_hours: specialHours,
});
export type Location = z.infer<typeof location>;

/** Staff edit (PATCH, PUT also accepted): any subset of the editable fields. */
export const locationUpdate = z
  .object({
    name: z.string().trim().min(1).max(120),
    address: z.string().trim().max(500),
    timezone: z.string().trim().min(1).max(64),
    currency: currencyCode,
    sales_tax_rate_percent: z.number().min(0).max(100).multipleOf(0.001),
    booking_fee_cents: z.number().int().min(0).max(1_000_000),
    booking_fees_threshold: z.number().int().min(0).max(1000),
    post_booking_url: safeUrl(),
    cancellation_window_hours: z.number().int().min(0).max(720).nullable(),
    late_cancellation_keep_percent: z.number().int().min(0).max(100).nullable(),
    opening_hours: openingHours,
    special_hours: specialHours,
  })
  .partial()
  .strict();
export type LocationUpdate = z.infer<typeof locationUpdate>;
