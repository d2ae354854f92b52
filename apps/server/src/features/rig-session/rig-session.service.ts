import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RigSession, RigSessionBooking } from '@paddock/contract/rig-session';
import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import { cars, tracks } from '../../db/schema/laps';
import { eventEntries, raceEvents } from '../../db/schema/races';
import { locations } from '../../db/schema/venue';
import { isoInZone, slotKeyAt } from '../../lib/slots';
import { publishChange } from '../../plugins/changes';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';
import { recordAudit } from '../audit/audit.service';
import { currentEventOf } from '../races/load-events';
import { oneSeatNow, type SeatNow, type SeatSession } from './seat-now';

/** A rig as its key names it (`rigFromHeader`). */
export type Rig = { id: number; calendarId: number };

export const NO_SESSION_NOW = 'This seat has no booking running now.';
export const SESSION_MOVED_ON =
  'This session is no longer the one running on the seat: the screen reads it again.';

async function seatOrFail(db: Queryable, seat: number, now: Date): Promise<SeatNow> {
  const found = await oneSeatNow(db, seat, now);
  // A rig key's seat always exists (the key is deleted with it): this is a race with a delete.
  if (!found) throw ValidationError.nonField('This rig has no seat.');
  return found;
}

/** The car and track of the event the seat runs now (its own entry's car, else the first). */
async function carAndTrack(db: Queryable, seat: number) {
  const eventId = await currentEventOf(db, seat);
  if (eventId === null) return { car: null, track: null };
  const [row] = await db
    .select({
      track: tracks.name,
      layout: tracks.layout,
      firstCar: raceEvents.carIds,
      entryCar: cars.name,
    })
    .from(raceEvents)
    .leftJoin(tracks, eq(tracks.id, raceEvents.trackId))
    .leftJoin(
      eventEntries,
      and(eq(eventEntries.eventId, raceEvents.id), eq(eventEntries.calendarId, seat)),
    )
    .leftJoin(cars, eq(cars.id, eventEntries.carId))
    .where(eq(raceEvents.id, eventId));
  if (!row) return { car: null, track: null };
  let car = row.entryCar;
  if (!car && row.firstCar.length > 0) {
    const [first] = await db
      .select({ name: cars.name })
      .from(cars)
      .where(eq(cars.id, row.firstCar[0]));
    car = first?.name ?? null;
  }
  const track = row.track ? `${row.track}${row.layout ? ` (${row.layout})` : ''}` : null;
  return { car: car ?? null, track };
}

async function checkedIn(db: Queryable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(inArray(reservations.id, ids), eq(reservations.attendance, 'checked_in')));
  return new Set(rows.map((r) => r.id));
}

/** The half-hour after the session holds nothing live (a booking or a blackout). */
async function nextHalfHourFree(db: Queryable, seat: number, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.calendarId, seat),
        eq(reservations.time, at),
        isNull(reservations.cancelledAt),
      ),
    );
  return !row;
}

function booking(s: SeatSession, zone: string, started: Set<number>): RigSessionBooking {
  return {
    reservation: s.reservation,
    customer_name: s.name,
    starts: isoInZone(s.starts, zone),
    ends: isoInZone(s.ends, zone),
    paid: s.paid,
    club: s.club,
    checked_in: started.has(s.reservation),
  };
}

/** What the rig screen and the rig agent read: the seat's session now and next. */
export async function rigSessionView(
  db: Queryable,
  rig: Rig,
  settings: VenueSettings,
  now = new Date(),
): Promise<RigSession> {
  const seat = await seatOrFail(db, rig.calendarId, now);
  const [{ car, track }, started, [location]] = await Promise.all([
    carAndTrack(db, seat.seat),
    checkedIn(
      db,
      [seat.current?.reservation, seat.next?.reservation].filter((id): id is number => !!id),
    ),
    db.select({ name: locations.name }).from(locations).where(eq(locations.id, seat.location)),
  ]);
  const zone = seat.timezone;
  const current = seat.current;
  const canExtend =
    !!current &&
    current.customer !== null &&
    !seat.outOfService &&
    (await nextHalfHourFree(db, seat.seat, current.ends));
  return {
    seat: seat.seat,
    seat_name: seat.seatName,
    location_name: location?.name ?? '',
    timezone: zone,
    now: now.toISOString(),
    out_of_service: seat.outOfService,
    current: current ? booking(current, zone, started) : null,
    next: seat.next ? booking(seat.next, zone, started) : null,
    start_mode: settings.rig_start_mode,
    first_warning_minutes: settings.rig_first_warning_minutes,
    last_warning_minutes: settings.rig_last_warning_minutes,
    can_extend: canExtend,
    car,
    track,
  };
}

/** The session running now on the rig's seat, which must be the one the caller read. */
export async function runningSession(db: Queryable, rig: Rig, reservation: number, now: Date) {
  const seat = await seatOrFail(db, rig.calendarId, now);
  if (!seat.current) throw ValidationError.field('reservation', NO_SESSION_NOW);
  if (!seat.current.reservations.includes(reservation))
    throw ValidationError.field('reservation', SESSION_MOVED_ON);
  return { seat, session: seat.current };
}

/**
 * The session started (the customer's Start, the automatic start, or the sim launched by staff
 * during it): its bookings are checked in, once. A booking marked a no-show keeps that mark for
 * staff to undo (its refund may have gone out).
 */
export async function startRigSession(db: Db, rig: Rig, reservation: number, now = new Date()) {
  const { seat, session } = await runningSession(db, rig, reservation, now);
  const marked = await db.transaction(async (tx) => {
    const rows = await tx
      .update(reservations)
      .set({ attendance: 'checked_in', updatedAt: sql`now()` })
      .where(and(inArray(reservations.id, session.reservations), isNull(reservations.attendance)))
      .returning({ id: reservations.id });
    if (rows.length === 0) return 0;
    await publishChange(tx, 'reservations', seat.seat);
    await recordAudit(tx, null, {
      action: 'rig_session.start',
      targetType: 'reservation',
      targetId: session.reservation,
      subjectUserId: session.customer,
      before: { attendance: null },
      after: { attendance: 'checked_in', seat: seat.seatName, rig: rig.id },
    });
    return rows.length;
  });
  return { detail: marked > 0 ? 'Checked in: the session has started.' : 'Already started.' };
}

/** The slot key of the half-hour starting at `at` on the seat (its zone). */
export function slotAt(at: Date, zone: string): string {
  const key = slotKeyAt(at, zone);
  if (!key) throw ValidationError.nonField('The next half-hour is not a bookable time.');
  return key;
}
