import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
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

/**
 * Every charge summed by UTC quarter-hour and by what the reports tell apart (decision 0107):
 * kept by a deferred constraint trigger on `charges` (migration report_charge_quarters_sync) at
 * the commit of every write, so no write path knows about it. It keeps the charges' own
 * dimensions, not the reports' rule: what counts as taken or sold is applied by the reads
 * (reports.repo.ts), the one place. Every real time zone's midnight falls on a quarter-hour, so a
 * period of local days is a whole number of buckets and the sums are exact.
 */
export const reportChargeQuarters = pgTable(
  'report_charge_quarters',
  {
    /** The quarter-hour the charges were created in: `date_bin('15 minutes', created_at, …)`. */
    bucket: timestamp({ withTimezone: true }).notNull(),
    kind: text().notNull(),
    /** The desk method (`cash`, …); '' for the card provider's charges (`method` null). */
    method: text().notNull(),
    /** The provider answered with a reference (`charge_ref` is not null). */
    referenced: boolean().notNull(),
    /** The charge succeeded (`errors = ''`). */
    succeeded: boolean().notNull(),
    /** Summed `amount_cents`: a chain's quarter-hours summed over years pass 2^31. */
    amountCents: bigint({ mode: 'number' }).notNull(),
    /** How many charges are in it: a row that falls to none is deleted. */
    charges: integer().notNull(),
  },
  (t) => [
    primaryKey({
      name: 'report_charge_quarters_pkey',
      columns: [t.bucket, t.kind, t.method, t.referenced, t.succeeded],
    }),
  ],
);
