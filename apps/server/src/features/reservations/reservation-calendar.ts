import type { Queryable } from '../../plugins/payments/charge-card';
import {
  bookingCalendar,
  type BookingCalendarOptions,
  type BookingEvent,
} from '../../lib/booking-calendar';
import { SLOT_MINUTES } from '../../lib/slots';
import type { AuthUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';
import * as repo from './reservations.repo';
import { roleOf } from './role-of';

const venueOf = (row: repo.ReservationRow) => ({
  name: row.locationName,
  address: row.locationAddress,
});

/** How long before a visit the customer's calendar reminds them (decision 0098). */
export const VISIT_REMINDER_MINUTES = 60;

/**
 * The customer's reservations as visits: rows at one venue whose times touch or overlap (the
 * back-to-back half-hours on a seat, a group's seats side by side), in time order.
 */
export function visitsOf(rows: repo.ReservationRow[]): repo.ReservationRow[][] {
  const sorted = [...rows].sort(
    (a, b) => a.time.getTime() - b.time.getTime() || a.calendarId - b.calendarId,
  );
  const visits: { rows: repo.ReservationRow[]; end: number }[] = [];
  for (const row of sorted) {
    const start = row.time.getTime();
    const visit = visits.find((v) => v.rows[0].locationId === row.locationId && start <= v.end);
    const end = start + SLOT_MINUTES * 60_000;
    if (visit) {
      visit.rows.push(row);
      visit.end = Math.max(visit.end, end);
    } else visits.push({ rows: [row], end });
  }
  return visits.map((v) => v.rows);
}

/** "Sim 1", "Sim 1 and Sim 2", "Sim 1, Sim 2 and Sim 3": each seat once, in booking order. */
function seatList(rows: repo.ReservationRow[]): string {
  const names = [...new Set(rows.map((row) => row.calendarName))];
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** What the customer sees: one event per visit, its seats and venue, and a reminder. */
export function customerEvent(visit: repo.ReservationRow[], publicUrl: string): BookingEvent {
  const [first] = visit;
  const end = Math.max(...visit.map((row) => row.time.getTime())) + SLOT_MINUTES * 60_000;
  const seats = seatList(visit);
  return {
    uid: { visitOf: first.id },
    start: first.time,
    end: new Date(end),
    reminderMinutes: VISIT_REMINDER_MINUTES,
    timezone: first.timezone,
    summary: `${seats} at ${first.locationName}`,
    description: [
      `Sim racing reservation on ${seats}.`,
      'Please arrive 10 minutes early.',
      `Your reservations: ${publicUrl}/dashboard`,
    ].join('\n'),
    venue: venueOf(first),
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
    uid: { reservationId: row.id },
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

/** The customer's calendar for these reservation rows: one event per visit, in time order. */
export function customerCalendarOf(
  rows: repo.ReservationRow[],
  opts: BookingCalendarOptions,
): string {
  return bookingCalendar(
    visitsOf(rows).map((visit) => customerEvent(visit, opts.publicUrl)),
    opts,
  );
}

const RUN_LIMIT = 10_000;

/**
 * One dashboard entry's calendar: the reservation and the back-to-back slots grouped with it
 * (as `group_base` groups them), as one visit. The owner or staff; anyone else gets 404.
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
