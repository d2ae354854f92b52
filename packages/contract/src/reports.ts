import { z } from 'zod';
import { idText } from './common';
import { isoDate } from './calendars';

/** A report covers at most a year and a day (a leap year's from/to inclusive). */
export const REPORT_DAYS_MAX = 366;
/** Top customers listed, and no-shows listed (the count covers them all). */
export const REPORT_TOP_CUSTOMERS = 10;
export const REPORT_NO_SHOWS_MAX = 200;

export const reportQuery = z
  .object({
    location: idText,
    /** First and last day (inclusive), in the location's time zone. */
    from: isoDate,
    to: isoDate,
  })
  .superRefine((q, ctx) => {
    const days = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1;
    if (days < 1)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'Enter a date on or after the start.',
      });
    else if (days > REPORT_DAYS_MAX)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `Choose a period of at most ${REPORT_DAYS_MAX} days.`,
      });
  });
export type ReportQuery = z.infer<typeof reportQuery>;

/** Revenue of one day or week, in cents; bookings exclude their booking fees. */
export const revenueRow = z.object({
  /** The day, or the Monday starting the week (YYYY-MM-DD). */
  date: z.string(),
  bookings_cents: z.number().int(),
  club_cents: z.number().int(),
  vouchers_cents: z.number().int(),
  fees_cents: z.number().int(),
  /**
   * Card refunds made at the payment provider outside Paddock (the Stripe dashboard), by the day
   * they were recorded: zero or negative, venue-wide like club and voucher sales (0084).
   */
  refunds_cents: z.number().int(),
  total_cents: z.number().int(),
});
export type RevenueRow = z.infer<typeof revenueRow>;

export const utilisationSeat = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Booked half-hours for each hour of the week: index (weekday − 1) × 24 + hour, Monday first. */
  booked: z.array(z.number().int()).length(168),
});

/**
 * Money received in the period by how it was paid, less what went back the same way, venue-wide,
 * by the day it was taken: `card` through the card provider, the rest at the desk (0083).
 */
export const takingsByMethod = z.object({
  card_cents: z.number().int(),
  cash_cents: z.number().int(),
  terminal_cents: z.number().int(),
  bank_transfer_cents: z.number().int(),
  other_cents: z.number().int(),
  total_cents: z.number().int(),
  /**
   * Not money taken, so outside the total (issue 41): bookings paid with gift vouchers and with
   * club credits (at their value), and the booking fees and sales tax inside the paid checkouts
   * of the period, venue-wide by the day they were paid.
   */
  voucher_cents: z.number().int(),
  credits_cents: z.number().int(),
  fees_cents: z.number().int(),
  tax_cents: z.number().int(),
});
export type TakingsByMethod = z.infer<typeof takingsByMethod>;

export const report = z.object({
  location: z.object({ id: z.number().int(), name: z.string(), timezone: z.string() }),
  from: z.string(),
  to: z.string(),
  utilisation: z.object({
    /** Half-hours a seat has in each hour of the week over the period (2 × how often it occurs). */
    capacity: z.array(z.number().int()).length(168),
    seats: z.array(utilisationSeat),
  }),
  revenue_by_day: z.array(revenueRow),
  revenue_by_week: z.array(revenueRow),
  revenue_total: revenueRow.omit({ date: true }),
  takings_by_method: takingsByMethod,
  club: z.object({
    joined: z.number().int(),
    cancelled: z.number().int(),
    /** Members in good standing now (active, paid up). */
    in_good_standing: z.number().int(),
  }),
  no_shows: z.object({
    count: z.number().int(),
    results: z.array(
      z.object({
        reservation: z.number().int(),
        slot: z.string(),
        seat: z.string(),
        user: z.number().int().nullable(),
        name: z.string(),
        email: z.string(),
      }),
    ),
  }),
  top_customers: z.array(
    z.object({
      user: z.number().int(),
      name: z.string(),
      email: z.string(),
      /** Paid half-hours at the location in the period. */
      bookings: z.number().int(),
      spent_cents: z.number().int(),
    }),
  ),
});
export type Report = z.infer<typeof report>;
