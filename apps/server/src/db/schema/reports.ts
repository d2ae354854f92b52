import { sql } from 'drizzle-orm';
import { date, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { calendars } from './venue';

/**
 * Each seat's day of live bookings, summed (decision 0044): kept by triggers on `reservations`
 * (migration 0023) in the same transaction as every write, so a booking, cancellation, move,
 * payment or refund is counted here exactly as the reports' own query would count it.
 * `day` is the seat-local date of the slot key; `hours[h + 1]` the booked half-hours in hour h.
 */
export const reportSeatDays = pgTable(
  'report_seat_days',
  {
    calendarId: integer()
      .notNull()
      .references(() => calendars.id, { onDelete: 'cascade' }),
    day: date().notNull(),
    hours: integer()
      .array()
      .notNull()
      .default(sql`array_fill(0, array[24])`),
    /** What paid live bookings took (fee and tax included), and the booking fees inside it. */
    paidCents: integer().notNull().default(0),
    feeCents: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.calendarId, t.day] })],
);
