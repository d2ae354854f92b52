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
export const WEEKDAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

const DAY_MINUTES = 24 * 60;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A range as minutes from its day's midnight; one closing at or before it opens ends the next day. */
function span(range: HoursRange): [number, number] {
  const open = minutesOf(range.open);
  const close = minutesOf(range.close);
  return [open, close <= open ? close + DAY_MINUTES : close];
}

/** True when two of the spans share a minute (touching ends, 12:00–14:00 and 14:00–18:00, do not). */
function anyOverlap(spans: [number, number][]): boolean {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  return sorted.some((s, i) => i > 0 && s[0] < sorted[i - 1][1]);
}

/** Ranges of one day that overlap each other. */
export function rangesOverlap(ranges: readonly HoursRange[]): boolean {
  return anyOverlap(ranges.map(span));
}

/**
 * Weekdays whose hours overlap: within the day, or the day's after-midnight tail running into
 * the next weekday's first range (Sunday runs into Monday).
 */
export function overlappingWeekdays(
  hours: Partial<Record<(typeof WEEKDAYS)[number], readonly HoursRange[]>>,
): string[] {
  const out: string[] = [];
  WEEKDAYS.forEach((day, i) => {
    const own = (hours[day] ?? []).map(span);
    const next = WEEKDAYS[(i + 1) % 7];
    const tails = own.filter(([, end]) => end > DAY_MINUTES);
    const following = (hours[next] ?? [])
      .map(span)
      .map(([a, b]) => [a + DAY_MINUTES, b + DAY_MINUTES] as [number, number]);
    if (anyOverlap(own) || (tails.length > 0 && anyOverlap([...tails, ...following])))
      out.push(day);
  });
  return out;
}

export const OVERLAP_MESSAGE = 'Opening hours may not overlap.';

/** Weekly hours: weekday "1" (Monday) … "7" (Sunday) → ranges; a missing or empty day is closed. */
export const openingHours = z
  .partialRecord(z.enum(WEEKDAYS), z.array(hoursRange).max(8))
  .superRefine((hours, ctx) => {
    for (const day of overlappingWeekdays(hours))
      ctx.addIssue({ code: 'custom', path: [day], message: OVERLAP_MESSAGE });
  });
export type OpeningHours = z.infer<typeof openingHours>;

/** Date overrides: "YYYY-MM-DD" → ranges replacing that day's hours; `[]` closes the date. */
export const specialHours = z
  .record(z.iso.date({ message: 'Use dates as YYYY-MM-DD.' }), z.array(hoursRange).max(8))
  .refine((hours) => Object.keys(hours).length <= 400, 'Keep at most 400 dates.')
  .superRefine((hours, ctx) => {
    for (const [date, ranges] of Object.entries(hours))
      if (rangesOverlap(ranges))
        ctx.addIssue({ code: 'custom', path: [date], message: OVERLAP_MESSAGE });
  });
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

/** The fields staff set on a location, each with its limit (written once, here). */
export const locationFields = z
  .object({
    name: z.string().trim().min(1).max(120),
    address: z.string().trim().max(500),
    /** IANA name; the server also checks the zone exists (`Enter a valid IANA time zone…`). */
    timezone: z.string().trim().min(1).max(64),
    currency: currencyCode,
    sales_tax_rate_percent: z.number().min(0).max(100).multipleOf(0.001),
    booking_fee_cents: z.number().int().min(0).max(1_000_000),
    booking_fees_threshold: z.number().int().min(0).max(1000),
    /** Where the customer goes after booking: http(s) or a path on this site. */
    post_booking_url: safeUrl(),
    cancellation_window_hours: z.number().int().min(0).max(720).nullable(),
    late_cancellation_keep_percent: z.number().int().min(0).max(100).nullable(),
    opening_hours: openingHours,
    special_hours: specialHours,
  })
  .strict();

/** Staff edit (PATCH, PUT also accepted): any subset of the editable fields. */
export const locationUpdate = locationFields.partial().strict();
export type LocationUpdate = z.infer<typeof locationUpdate>;

/** POST /locations: a name and a time zone; everything else starts at its default. */
export const locationCreate = locationFields
  .partial()
  .required({ name: true, timezone: true })
  .strict();
export type LocationCreate = z.infer<typeof locationCreate>;

/**
 * POST /locations/slot-preview: the bookable slots that these hours give on a date, computed by
 * the server's own slot rules (so the form can preview hours before saving them).
 */
export const slotPreviewRequest = z
  .object({
    date: z.iso.date({ message: 'Enter a date as YYYY-MM-DD.' }),
    timezone: z.string().trim().min(1).max(64),
    opening_hours: openingHours,
    special_hours: specialHours.default({}),
  })
  .strict();
export type SlotPreviewRequest = z.input<typeof slotPreviewRequest>;

export const slotPreview = z.object({
  date: z.string(),
  timezone: z.string(),
  /** The date's length in half-hours (46 or 50 on a DST change, else 48). */
  half_hours_in_day: z.number().int(),
  slots: z.array(z.object({ slot: z.string(), time: z.string() })),
});
export type SlotPreview = z.infer<typeof slotPreview>;
