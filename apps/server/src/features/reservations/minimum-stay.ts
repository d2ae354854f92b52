import { and, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import {
  minimumStayLeftMessage,
  minimumStayMessage,
  SLOT_MINUTES,
} from '@paddock/contract/calendars';
import { reservations } from '../../db/schema/booking';
import { calendarTypes, calendars } from '../../db/schema/venue';
import type { Queryable } from '../../plugins/payments/charge-card';
import { ValidationError } from '../../plugins/errors';
import type { SeatForBooking } from './reservations.repo';

const SLOT_MS = SLOT_MINUTES * 60_000;

/**
 * Whose booking the slots are, for the seat type's minimum (decisions 0089, 0112): a blackout
 * has none; a booking's run on a seat counts the customer's own live bookings next to it there;
 * `'move'` is the one move road (refunds/move-reservation.ts), which checks every run it touches
 * at once with `assertRunsHold` once it knows all that moves.
 */
export type StayCheck = { userId: number | null } | 'move' | 'blackout';

type Item = { seat: SeatForBooking; slot: { startMs: number } };

/**
 * Every booked run of half-hours on a seat is at least its type's minimum: the slots asked for
 * together, joined by the customer's own bookings on that seat just before and after.
 */
export async function assertMinimumStay(
  db: Queryable,
  items: Item[],
  stay: StayCheck,
  field: (index: number, name: string) => string,
): Promise<void> {
  if (stay === 'blackout' || stay === 'move') return;
  const checked = items.filter((i) => i.seat.typeMinMinutes > SLOT_MINUTES);
  if (checked.length === 0) return;
  const around = await ownStarts(
    db,
    stay.userId,
    checked.map((i) => ({ seatId: i.seat.id, startMs: i.slot.startMs })),
    Math.max(...checked.map((i) => i.seat.typeMinMinutes)) * 60_000,
    new Set(),
  );
  items.forEach((item, index) => {
    if (!checked.includes(item)) return;
    const taken = new Set([
      ...items.filter((i) => i.seat.id === item.seat.id).map((i) => i.slot.startMs),
      ...(around.get(item.seat.id) ?? []),
    ]);
    if (runLength(taken, item.slot.startMs) < item.seat.typeMinMinutes * 60_000)
      throw ValidationError.field(
        field(index, 'slot'),
        minimumStayMessage(item.seat.typeName, item.seat.typeMinMinutes),
      );
  });
}

/** A customer's half-hour on a seat that a change takes away (`id`) or brings. */
export type RunPlace = { userId: number | null; seatId: number; startMs: number };

/**
 * After a change to who holds which half-hours (a move, a run moving together, a blackout made
 * a customer's booking, a booking given to someone else), every run of a customer's half-hours
 * on a seat with a minimum that the change touches is still at least that minimum: the runs
 * where half-hours arrive, and those next to where they left. A whole run moving together leaves
 * nothing behind, so it passes; one half-hour taken out of a 2-hour VR visit does not.
 */
export async function assertRunsHold(
  db: Queryable,
  change: { gone: (RunPlace & { id: number })[]; come: RunPlace[] },
  field: string,
): Promise<void> {
  const all = [...change.gone, ...change.come].filter((p) => p.userId !== null);
  if (all.length === 0) return;
  const types = await seatTypes(db, [...new Set(all.map((p) => p.seatId))]);
  const limited = all.filter((p) => (types.get(p.seatId)?.min ?? 0) > SLOT_MINUTES);
  if (limited.length === 0) return;
  const goneIds = new Set(change.gone.map((p) => p.id));
  const reach = Math.max(...limited.map((p) => types.get(p.seatId)!.min)) * 60_000;
  const keyOf = (p: RunPlace) => `${p.userId}|${p.seatId}`;
  const after = new Map<string, Set<number>>();
  for (const key of new Set(limited.map(keyOf))) {
    const mine = limited.filter((p) => keyOf(p) === key);
    const starts = await ownStarts(db, mine[0].userId, mine, reach, goneIds);
    const taken = new Set(starts.get(mine[0].seatId) ?? []);
    for (const p of change.come) if (keyOf(p) === key) taken.add(p.startMs);
    after.set(key, taken);
  }
  const tooShort = (p: RunPlace, at: number) => {
    const taken = after.get(keyOf(p));
    const min = types.get(p.seatId)?.min ?? 0;
    return !!taken && taken.has(at) && runLength(taken, at) < min * 60_000;
  };
  for (const p of change.come)
    if (tooShort(p, p.startMs)) {
      const type = types.get(p.seatId)!;
      throw ValidationError.field(field, minimumStayMessage(type.name, type.min));
    }
  for (const p of change.gone)
    if (tooShort(p, p.startMs - SLOT_MS) || tooShort(p, p.startMs + SLOT_MS)) {
      const type = types.get(p.seatId)!;
      throw ValidationError.field(field, minimumStayLeftMessage(type.name, type.min));
    }
}

/**
 * The length of the run of taken half-hours through `at` (in ms): the one measure of a run that
 * the booking check and the move check both use (booking-rules.ts names it).
 */
export function runLength(taken: Set<number>, at: number): number {
  let first = at;
  while (taken.has(first - SLOT_MS)) first -= SLOT_MS;
  let end = at + SLOT_MS;
  while (taken.has(end)) end += SLOT_MS;
  return end - first;
}

/** Each seat's type: its name and minimum (an inactive seat's too: a broken rig's bookings). */
async function seatTypes(db: Queryable, seatIds: number[]) {
  const rows = await db
    .select({ id: calendars.id, name: calendarTypes.name, min: calendarTypes.minMinutes })
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(inArray(calendars.id, seatIds));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Start instants of the customer's live bookings on these seats near `places`, less `skip`. */
async function ownStarts(
  db: Queryable,
  userId: number | null,
  places: { seatId: number; startMs: number }[],
  reach: number,
  skip: Set<number>,
): Promise<Map<number, number[]>> {
  const bySeat = new Map<number, number[]>();
  if (userId === null) return bySeat;
  const starts = places.map((p) => p.startMs);
  const rows = await db
    .select({ id: reservations.id, calendarId: reservations.calendarId, time: reservations.time })
    .from(reservations)
    .where(
      and(
        eq(reservations.userId, userId),
        inArray(reservations.calendarId, [...new Set(places.map((p) => p.seatId))]),
        isNull(reservations.cancelledAt),
        eq(reservations.isBlackout, false),
        gte(reservations.time, new Date(Math.min(...starts) - reach)),
        lte(reservations.time, new Date(Math.max(...starts) + reach)),
      ),
    );
  for (const row of rows) {
    if (skip.has(row.id)) continue;
    const list = bySeat.get(row.calendarId) ?? [];
    list.push(row.time.getTime());
    bySeat.set(row.calendarId, list);
  }
  return bySeat;
}
