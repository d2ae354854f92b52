import { and, eq, gte, inArray, isNull, lte, ne } from 'drizzle-orm';
import { minimumStayMessage, SLOT_MINUTES } from '@paddock/contract/calendars';
import { reservations } from '../../db/schema/booking';
import { calendarTypes, calendars } from '../../db/schema/venue';
import type { Queryable } from '../../plugins/payments/charge-card';
import { ValidationError } from '../../plugins/errors';
import type { SeatForBooking } from './reservations.repo';

const SLOT_MS = SLOT_MINUTES * 60_000;

/**
 * Whose booking the slots are, for the seat type's minimum (decision 0089): a blackout has none;
 * a booking's run on a seat counts the customer's own live bookings next to it there; `moving`
 * is the reservation a move takes away (it no longer counts where it was).
 */
export type StayCheck = { userId: number | null } | { moving: number } | 'blackout';

type Item = { seat: SeatForBooking; slot: { startMs: number } };

/**
 * Every booked run of half-hours on a seat is at least its type's minimum: the slots asked for
 * together, joined by the customer's own bookings on that seat just before and after. A move
 * from a seat whose type asks as much or more keeps its booking's length (it was checked when
 * booked), so a 2-hour VR visit can move one half-hour at a time.
 */
export async function assertMinimumStay(
  db: Queryable,
  items: Item[],
  stay: StayCheck,
  field: (index: number, name: string) => string,
): Promise<void> {
  if (stay === 'blackout') return;
  const limited = items.filter((i) => i.seat.typeMinMinutes > SLOT_MINUTES);
  if (limited.length === 0) return;
  const moved = 'moving' in stay ? await movedBooking(db, stay.moving) : null;
  const checked = limited.filter((i) => i.seat.typeMinMinutes > (moved?.min ?? 0));
  if (checked.length === 0) return;
  const userId = 'moving' in stay ? (moved?.userId ?? null) : stay.userId;
  const around = await ownBookingsAround(db, checked, userId, moved?.id);
  items.forEach((item, index) => {
    const min = item.seat.typeMinMinutes;
    if (!checked.includes(item)) return;
    const taken = new Set([
      ...items.filter((i) => i.seat.id === item.seat.id).map((i) => i.slot.startMs),
      ...(around.get(item.seat.id) ?? []),
    ]);
    let first = item.slot.startMs;
    while (taken.has(first - SLOT_MS)) first -= SLOT_MS;
    let end = item.slot.startMs + SLOT_MS;
    while (taken.has(end)) end += SLOT_MS;
    if (end - first < min * 60_000)
      throw ValidationError.field(
        field(index, 'slot'),
        minimumStayMessage(item.seat.typeName, min),
      );
  });
}

/** The booking a move takes away: its customer and its seat type's minimum. */
async function movedBooking(db: Queryable, reservationId: number) {
  const [row] = await db
    .select({
      id: reservations.id,
      userId: reservations.userId,
      min: calendarTypes.minMinutes,
    })
    .from(reservations)
    .innerJoin(calendars, eq(calendars.id, reservations.calendarId))
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(eq(reservations.id, reservationId));
  return row ?? null;
}

/** Start instants of the customer's live bookings on these seats, near the slots asked for. */
async function ownBookingsAround(
  db: Queryable,
  items: Item[],
  userId: number | null,
  moving: number | undefined,
): Promise<Map<number, number[]>> {
  const byId = new Map<number, number[]>();
  if (userId === null) return byId;
  const reach = Math.max(...items.map((i) => i.seat.typeMinMinutes)) * 60_000;
  const starts = items.map((i) => i.slot.startMs);
  const rows = await db
    .select({ calendarId: reservations.calendarId, time: reservations.time })
    .from(reservations)
    .where(
      and(
        eq(reservations.userId, userId),
        inArray(reservations.calendarId, [...new Set(items.map((i) => i.seat.id))]),
        isNull(reservations.cancelledAt),
        eq(reservations.isBlackout, false),
        gte(reservations.time, new Date(Math.min(...starts) - reach)),
        lte(reservations.time, new Date(Math.max(...starts) + reach)),
        ...(moving === undefined ? [] : [ne(reservations.id, moving)]),
      ),
    );
  for (const row of rows) {
    const list = byId.get(row.calendarId) ?? [];
    list.push(row.time.getTime());
    byId.set(row.calendarId, list);
  }
  return byId;
}
