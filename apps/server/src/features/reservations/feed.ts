import { DateTime } from 'luxon';
import type { Db } from '../../db/client';
import { bookingCalendar, type BookingCalendarOptions } from '../../lib/booking-calendar';
import * as repo from './reservations.repo';
import { staffEvent } from './reservation-calendar';

const FEED_LIMIT = 10_000;

/**
 * The planner's read-only iCalendar feed: every live reservation and blackout from two months
 * back to the end of next month (the planner's range), one event per seat-slot in its
 * location's zone, with the same UIDs as the customers' own calendars.
 */
export async function reservationsFeed(
  db: Db,
  opts: Omit<BookingCalendarOptions, 'name'> & { locationId?: number; companyName: string },
): Promise<string> {
  const now = DateTime.fromJSDate(opts.now ?? new Date(), { zone: 'UTC' });
  const from = now.minus({ months: 2 }).startOf('day');
  const to = now.plus({ months: 1 }).endOf('month').plus({ days: 1 });
  const rows = await repo.rowsBetween(
    db,
    from.toJSDate(),
    to.toJSDate(),
    opts.locationId,
    FEED_LIMIT,
  );
  return bookingCalendar(
    rows.map((row) => staffEvent(row, opts.publicUrl)),
    { ...opts, name: `${opts.companyName} reservations`, ttlSeconds: 600 },
  );
}
