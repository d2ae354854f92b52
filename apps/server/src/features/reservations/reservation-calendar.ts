import type { Queryable } from '../../plugins/payments/charge-card';
import {
  bookingCalendar,
  type BookingCalendarOptions,
  type BookingEvent,
} from '../../lib/booking-calendar';
import type { AuthUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';
import * as repo from './reservations.repo';
import { roleOf } from './role-of';

const venueOf = (row: repo.ReservationRow) => ({
  name: row.locationName,
  address: row.locationAddress,
});

/** What the customer sees: the seat and the venue, and the way back to their bookings. */
export function customerEvent(row: repo.ReservationRow, publicUrl: string): BookingEvent {
  return {
    reservationId: row.id,
    start: row.time,
    timezone: row.timezone,
    summary: `${row.calendarName} at ${row.locationName}`,
    description: [
      `Sim racing reservation on ${row.calendarName}.`,
      'Please arrive 10 minutes early.',
      `Your reservations: ${publicUrl}/dashboard`,
    ].join('\n'),
    venue: venueOf(row),
    url: `${publicUrl}/dashboard`,
  };
}

/**
 * The racer's name for staff: racer name, else full name. Never the e-mail, which the display-name
 * fallback would use: a feed ends up in shared and synced calendars.
 */
export function racerName(person: repo.PersonName | null): string {
  if (!person) return 'Guest';
  return person.racerName || `${person.firstName} ${person.lastName}`.trim() || 'Customer';
}

/** What staff see in the planner feed: seat and racer (or the blackout and its notes). */
export function staffEvent(row: repo.ReservationRow, publicUrl: string): BookingEvent {
  const who = row.isBlackout
    ? `Blackout${row.notes ? `: ${row.notes}` : ''}`
    : `${racerName(row.user)}${row.paid ? '' : ' (unpaid)'}`;
  return {
    reservationId: row.id,
    start: row.time,
    timezone: row.timezone,
    summary: `${row.calendarName}: ${who}`,
    description: row.notes || undefined,
    venue: venueOf(row),
    url: `${publicUrl}/admin/seats`,
  };
}

/** The customer's calendar for these reservations (the booking e-mail's attachment). */
export async function customerCalendar(
  db: Queryable,
  ids: number[],
  opts: BookingCalendarOptions,
): Promise<string> {
  return customerCalendarOf(await repo.findRowsByIds(db, ids), opts);
}

/** The customer's calendar for these reservation rows, in time order. */
export function customerCalendarOf(
  rows: repo.ReservationRow[],
  opts: BookingCalendarOptions,
): string {
  rows = [...rows].sort(
    (a, b) => a.time.getTime() - b.time.getTime() || a.calendarId - b.calendarId,
  );
  return bookingCalendar(
    rows.map((row) => customerEvent(row, opts.publicUrl)),
    opts,
  );
}

const RUN_LIMIT = 10_000;

/**
 * One dashboard entry's calendar: the reservation and the back-to-back slots grouped with it
 * (as `group_base` groups them), one event each. The owner or staff; anyone else gets 404.
 */
export async function reservationRunCalendar(
  db: Queryable,
  caller: AuthUser,
  id: number,
  opts: BookingCalendarOptions,
): Promise<string> {
  const row = await repo.findLiveRow(db, id);
  if (!row || (roleOf(caller) !== 'staff' && row.userId !== caller.id)) throw new NotFound();
  let ids = [row.id];
  if (row.userId !== null) {
    const groups = await repo.pageGroups(
      db,
      { userId: row.userId, calendarId: row.calendarId, isBlackout: false },
      false,
      RUN_LIMIT,
      0,
    );
    ids = groups.find((group) => group.includes(row.id)) ?? ids;
  }
  return customerCalendar(db, ids, opts);
}
