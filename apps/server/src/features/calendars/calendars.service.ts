import type {
  AvailQuoteResponse,
  AvailResponse,
  AvailSlot,
  Calendar,
  CalendarType,
  ParallelResponse,
} from '@paddock/contract/calendars';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import {
  bookingWindow,
  dayBounds,
  daySlots,
  inWindow,
  isBookable,
  nextDate,
  SLOT_MINUTES,
  viewWindow,
  type LocationHours,
  type Role,
  type Slot,
} from '../../lib/slots';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import * as repo from './calendars.repo';
import type { AnswerCache } from './answer-cache';
import { parallelStarts, takenBySeat } from './parallel';

/** Who is asking: staff with reservations.change_reservation get the staff booking window. */
export type Caller = { userId: number | null; role: Role };

export function callerOf(user: AuthUser | null): Caller {
  return {
    userId: user?.id ?? null,
    role: hasPermission(user, 'reservations.change_reservation') ? 'staff' : 'customer',
  };
}

export function toCalendar(seat: repo.SeatRow): Calendar {
  return {
    id: seat.id,
    name: seat.name,
    cost_cents: seat.costCents,
    cost_unit: seat.costUnit,
    type: seat.typeId,
    type_name: seat.typeName,
    type_image: seat.typeImage,
    type_description: seat.typeDescription,
    type_min_minutes: seat.typeMinMinutes,
    image: seat.image,
    event: seat.eventId,
    location: seat.locationId,
    currency: seat.currency,
  };
}

const hoursOf = (location: repo.LocationRow): LocationHours => ({
  timezone: location.timezone,
  openingHours: location.openingHours,
  specialHours: location.specialHours,
});

export function listCalendarTypes(
  db: Db,
  query: PaginationQuery,
): Promise<Paginated<CalendarType>> {
  return paginate(
    query,
    () => repo.countTypes(db),
    async (limit, offset) =>
      (await repo.pageTypes(db, limit, offset)).map((t) => ({
        id: t.id,
        name: t.name,
        image: t.image,
        description: t.description,
        is_vr: t.isVr,
        min_minutes: t.minMinutes,
      })),
  );
}

export async function listCalendars(
  db: Db,
  query: PaginationQuery & {
    has_slot_avail?: string;
    block_count?: number;
    search?: string;
    location?: number;
    type__in?: number[];
  },
  caller: Caller,
  now = new Date(),
): Promise<Paginated<Calendar>> {
  const filter = { search: query.search, location: query.location, typeIn: query.type__in };
  const date = query.has_slot_avail;
  if (!date) {
    return paginate(
      query,
      () => repo.countSeats(db, filter),
      async (limit, offset) =>
        (await repo.findSeats(db, filter, { limit, offset })).map(toCalendar),
    );
  }
  // Availability is computed, not stored: filter the (few dozen) seats in memory.
  const seats = await repo.findSeats(db, filter);
  const starts = await freeRuns(db, seats, date, query.block_count ?? 1, 1, caller, now);
  const matching = seats.filter((s) => (starts.get(s.id)?.length ?? 0) > 0).map(toCalendar);
  return paginate(
    query,
    async () => matching.length,
    async (limit, offset) => matching.slice(offset, offset + limit),
  );
}

export async function getCalendar(db: Db, id: number): Promise<Calendar> {
  const found = await repo.findSeatWithLocation(db, id);
  if (!found) throw new NotFound();
  return toCalendar(found.seat);
}

/** The location's slots of `date` and the next day, so runs may cross midnight. */
function slotsFrom(hours: LocationHours, date: string): Slot[] {
  return [...daySlots(hours, date), ...daySlots(hours, nextDate(date))];
}

/**
 * For each seat, the start slots on `date` of a bookable run of `length` free slots shared by
 * at least `racers` seats of the same location.
 */
async function freeRuns(
  db: Db,
  seats: repo.SeatRow[],
  date: string,
  length: number,
  racers: number,
  caller: Caller,
  now: Date,
  known?: repo.LocationRow,
): Promise<Map<number, Slot[]>> {
  const out = new Map<number, Slot[]>();
  const byLocation = new Map<number, number[]>();
  for (const seat of seats)
    byLocation.set(seat.locationId, [...(byLocation.get(seat.locationId) ?? []), seat.id]);
  // The parallel search has already read its one location: no second round trip for it.
  const ids = [...byLocation.keys()];
  const locations =
    known && ids.every((id) => id === known.id)
      ? ids.map(() => known)
      : await repo.findLocations(db, ids);
  for (const location of locations) {
    const seatIds = byLocation.get(location.id) ?? [];
    const window = bookingWindow(caller.role, location.timezone, now);
    if (!inWindow(date, window)) continue;
    const slots = slotsFrom(hoursOf(location), date);
    const from = dayBounds(location.timezone, date).from;
    const to = dayBounds(location.timezone, nextDate(date)).to;
    const taken = takenBySeat([
      ...(await repo.liveReservations(db, seatIds, from, to)),
      ...(await repo.heldForOthers(
        db,
        seatIds,
        date,
        nextDate(nextDate(date)),
        caller.userId,
        now,
      )),
    ]);
    const starts = parallelStarts({
      date,
      slots,
      seatIds,
      taken,
      bookable: (s) => isBookable(s, window, now),
      length,
      racers,
    });
    for (const [id, list] of starts) out.set(id, list);
  }
  return out;
}

function assertViewable(date: string, caller: Caller, zone: string, now: Date) {
  const window = viewWindow(caller.role, zone, now);
  if (!inWindow(date, window))
    throw ValidationError.field('date', `Choose a date from ${window.first} to ${window.last}.`);
}

/** `seatAvailability` as JSON text, from `cache` when nothing changed since (decision 0036). */
export function seatAvailabilityJson(
  cache: AnswerCache,
  heard: () => Promise<boolean>,
  db: Db,
  calendarId: number,
  date: string,
  caller: Caller,
): Promise<string> {
  // Whose the reservations are only matters to a signed-in caller's own ones.
  const key = `seat|${calendarId}|${date}|${caller.role}|${caller.userId}`;
  return cache.answer(key, heard, async () => {
    const found = await repo.findSeatWithLocation(db, calendarId);
    if (!found) throw new NotFound();
    return {
      value: await seatAvailability(db, calendarId, date, caller, new Date(), found),
      locationId: found.location.id,
      seatIds: [calendarId],
    };
  });
}

/** One seat's slots on a local date, each with the caller's view of it. */
export async function seatAvailability(
  db: Db,
  calendarId: number,
  date: string,
  caller: Caller,
  now = new Date(),
  known?: { seat: repo.SeatRow; location: repo.LocationRow },
): Promise<AvailResponse> {
  const found = known ?? (await repo.findSeatWithLocation(db, calendarId));
  if (!found) throw new NotFound();
  const { location } = found;
  assertViewable(date, caller, location.timezone, now);
  const { from, to } = dayBounds(location.timezone, date);
  const reserved = new Map(
    (await repo.liveReservations(db, [calendarId], from, to)).map((r) => [r.slot, r]),
  );
  const held = new Set(
    (await repo.heldForOthers(db, [calendarId], date, nextDate(date), caller.userId, now)).map(
      (h) => h.slot,
    ),
  );
  const window = bookingWindow(caller.role, location.timezone, now);
  const out: AvailResponse = {};
  for (const slot of daySlots(hoursOf(location), date)) {
    const r = reserved.get(slot.slot);
    const past = !isBookable(slot, window, now);
    const mine = !!r && r.userId !== null && r.userId === caller.userId;
    const state: AvailSlot['state'] = r
      ? r.isBlackout
        ? 'blackout'
        : mine
          ? r.paid
            ? 'mine_paid'
            : 'mine_unpaid'
          : 'taken'
      : past
        ? 'past'
        : held.has(slot.slot)
          ? 'taken'
          : 'free';
    out[slot.slot] = {
      slot: slot.slot,
      time: slot.time,
      block: SLOT_MINUTES,
      state,
      available: state === 'free',
      reserved_by_me: mine,
      paid: mine ? r.paid : null,
      is_blackout: !!r?.isBlackout,
      past,
    };
  }
  return out;
}

async function requireLocation(db: Db, id: number): Promise<repo.LocationRow> {
  const location = await repo.findLocation(db, id);
  if (!location) throw ValidationError.field('location', 'Location not found.');
  return location;
}

function seatsOf(db: Db, location: number, typeIn: number[] | undefined) {
  return typeIn === undefined
    ? repo.findLocationSeats(db, location)
    : repo.findSeats(db, { location, typeIn });
}

type ParallelQuery = {
  date: string;
  location: number;
  block: number;
  sessions: number;
  racers: number;
  type__in?: number[];
};

/** `parallelAvailability` as JSON text, from `cache` when nothing changed since (decision 0036). */
export function parallelAvailabilityJson(
  cache: AnswerCache,
  heard: () => Promise<boolean>,
  db: Db,
  query: ParallelQuery,
  caller: Caller,
): Promise<string> {
  const { date, location, block, sessions, racers } = query;
  const types = query.type__in?.join(',') ?? '';
  // A seat held for a signed-in caller on the waitlist is free for them alone.
  const key = `parallel|${location}|${date}|${block}|${sessions}|${racers}|${types}|${caller.role}|${caller.userId}`;
  return cache.answer(key, heard, async () => {
    const value = await parallelAvailability(db, query, caller);
    return { value, locationId: location, seatIds: value.map((s) => s.id) };
  });
}

/** Seats where `racers` drivers sit side by side for `sessions × block` minutes from one start. */
export async function parallelAvailability(
  db: Db,
  query: ParallelQuery,
  caller: Caller,
  now = new Date(),
): Promise<ParallelResponse> {
  const location = await requireLocation(db, query.location);
  assertViewable(query.date, caller, location.timezone, now);
  const seats = await seatsOf(db, location.id, query.type__in);
  const length = (query.sessions * query.block) / SLOT_MINUTES;
  const starts = await freeRuns(db, seats, query.date, length, query.racers, caller, now, location);
  return seats
    .filter((s) => (starts.get(s.id)?.length ?? 0) > 0)
    .map((s) => ({
      ...toCalendar(s),
      slots: starts.get(s.id)!.map(({ slot, time }) => ({ slot, time })),
    }));
}

/** How many seats of the location are free and bookable at each slot of the date. */
export async function locationAvailability(
  db: Db,
  query: { date: string; location: number; type__in?: number[] },
  caller: Caller,
  now = new Date(),
): Promise<AvailQuoteResponse> {
  const location = await requireLocation(db, query.location);
  assertViewable(query.date, caller, location.timezone, now);
  const seats = await seatsOf(db, location.id, query.type__in);
  const { from, to } = dayBounds(location.timezone, query.date);
  const rows = await repo.liveReservations(
    db,
    seats.map((s) => s.id),
    from,
    to,
  );
  const held = await repo.heldForOthers(
    db,
    seats.map((s) => s.id),
    query.date,
    nextDate(query.date),
    caller.userId,
    now,
  );
  // A seat counts once, whether it is booked, held or both.
  const seatSlots = new Set([...rows, ...held].map((r) => `${r.calendarId} ${r.slot}`));
  const takenCount = new Map<string, number>();
  for (const key of seatSlots) {
    const slot = key.slice(key.indexOf(' ') + 1);
    takenCount.set(slot, (takenCount.get(slot) ?? 0) + 1);
  }
  const window = bookingWindow(caller.role, location.timezone, now);
  return daySlots(hoursOf(location), query.date).map((slot) => ({
    slot: slot.slot,
    time: slot.time,
    block: SLOT_MINUTES,
    available: isBookable(slot, window, now) ? seats.length - (takenCount.get(slot.slot) ?? 0) : 0,
    seats: seats.length,
  }));
}
