import ical from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';
import type { Db } from '../../db/client';
import { SLOT_MINUTES } from '../../lib/slots';
import * as repo from './reservations.repo';
import { displayName } from './reservations.service';

const FEED_LIMIT = 10_000;

/**
 * The planner's read-only iCalendar feed: every live reservation and blackout from two months
 * back to the end of next month (the planner's range), one event per seat-slot in its
 * location's zone.
 */
export async function reservationsFeed(
  db: Db,
  opts: { locationId?: number; companyName: string; now?: Date },
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
  const calendar = ical({ name: `${opts.companyName} reservations`, ttl: 600 });
  calendar.timezone({ name: null, generator: getVtimezoneComponent });
  for (const row of rows) {
    const start = DateTime.fromJSDate(row.time, { zone: row.timezone });
    const who = row.isBlackout
      ? `Blackout${row.notes ? `: ${row.notes}` : ''}`
      : `${displayName(row.user) ?? 'Guest'}${row.paid ? '' : ' (unpaid)'}`;
    calendar.createEvent({
      id: `paddock-reservation-${row.id}`,
      start,
      end: start.plus({ minutes: SLOT_MINUTES }),
      timezone: row.timezone,
      summary: `${row.calendarName}: ${who}`,
      description: row.notes || undefined,
    });
  }
  return calendar.toString();
}
