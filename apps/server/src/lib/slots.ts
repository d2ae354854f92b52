import { DateTime, IANAZone } from 'luxon';
import { LRUCache } from 'lru-cache';
import { isRealDate, SLOT_KEY_PATTERN, SLOT_MINUTES } from '@paddock/contract/calendars';

/**
 * Bookable half-hours of a location, in its IANA time zone. The one place that turns opening
 * hours and local slot keys into instants (see docs/decisions/0005-slots-and-time-zones.md).
 *
 * - A slot key is the seat-local start `YYYY-MM-DDTHH:mm`; slots start at :00 and :30.
 * - The slots of a date are every slot whose key starts with that date (calendar-day
 *   semantics, like `slot__startswith`): the tail of the previous day's after-midnight hours
 *   belongs to the date it falls on.
 * - Spring forward: the skipped wall-clock hour has no slots (46 half-hours on a 24h day).
 * - Fall back: the repeated wall-clock hour is bookable once, on its first occurrence; the
 *   second pass has no slot, so keys never repeat (48 keys on a 50-half-hour day).
 */

export { SLOT_MINUTES };
const SLOT_MS = SLOT_MINUTES * 60_000;

export type HoursRange = { open: string; close: string };
/** Weekday "1" (Monday) … "7" (Sunday), luxon numbering → local ranges. */
export type WeeklyHours = Record<string, HoursRange[]>;
/** "YYYY-MM-DD" → ranges replacing that day's weekly hours; `[]` = closed. */
export type DateHours = Record<string, HoursRange[]>;
export type LocationHours = {
  timezone: string;
  openingHours: WeeklyHours;
  specialHours: DateHours;
};

export type Slot = {
  /** Local start `YYYY-MM-DDTHH:mm`. */
  slot: string;
  /** ISO 8601 instant with the location's offset at that moment. */
  time: string;
  startMs: number;
};

export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export function isValidZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/**
 * A real calendar date in `YYYY-MM-DD` form (years 0001–9999): the contract's one rule, which
 * the API document carries as a pattern. No luxon parse: that was three calls per booking.
 */
export const isValidDate = isRealDate;

/** Well-formed key at :00/:30 on a real date (it may still fall outside opening hours). */
export function isValidSlotKey(key: string): boolean {
  return SLOT_KEY_PATTERN.test(key);
}

function shiftDate(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/** The ranges that apply to a business date: its special hours, else its weekday's hours. */
export function rangesFor(hours: LocationHours, date: string): HoursRange[] {
  const special = hours.specialHours[date];
  if (special) return special;
  const weekday = DateTime.fromISO(date, { zone: 'UTC' }).weekday;
  return hours.openingHours[String(weekday)] ?? [];
}

/**
 * A local wall-clock time as an instant. A time skipped by spring-forward moves forward (luxon's
 * rule); a repeated fall-back time resolves to its first occurrence, so a venue opening at 01:00
 * on that night opens the first time the clock reads 01:00.
 */
function localInstant(date: string, hhmm: string, zone: string): DateTime {
  const [hour, minute] = hhmm.split(':').map(Number);
  const [year, month, day] = date.split('-').map(Number);
  const dt = DateTime.fromObject({ year, month, day, hour, minute }, { zone });
  const wall = dt.toFormat("yyyy-MM-dd'T'HH:mm");
  for (const back of [60, 30]) {
    const earlier = dt.minus({ minutes: back });
    if (earlier.toFormat("yyyy-MM-dd'T'HH:mm") === wall) return earlier;
  }
  return dt;
}

function toSlot(instant: DateTime): Slot {
  return {
    slot: instant.toFormat("yyyy-MM-dd'T'HH:mm"),
    time: instant.toISO({ suppressMilliseconds: true })!,
    startMs: instant.toMillis(),
  };
}

/** Slots produced by one business date's ranges; a range closing at or before it opens ends the next day. */
function businessDaySlots(hours: LocationHours, date: string): Slot[] {
  const zone = hours.timezone;
  const out: Slot[] = [];
  for (const range of rangesFor(hours, date)) {
    const start = localInstant(date, range.open, zone);
    const closesNextDay = range.close <= range.open;
    const end = localInstant(closesNextDay ? shiftDate(date, 1) : date, range.close, zone);
    // Step in absolute time so a skipped hour yields nothing and a repeated hour yields its
    // second pass too (removed below by key); align the first step to :00 or :30 local.
    let cursor = start.startOf('minute');
    const minute = cursor.minute % SLOT_MINUTES;
    if (minute !== 0) cursor = cursor.plus({ minutes: SLOT_MINUTES - minute });
    while (cursor.toMillis() + SLOT_MS <= end.toMillis()) {
      if (cursor.minute % SLOT_MINUTES === 0) out.push(toSlot(cursor));
      cursor = cursor.plus({ milliseconds: SLOT_MS });
    }
  }
  return out;
}

/**
 * Every slot whose key falls on `date` (local), in time order, each key once (its first
 * occurrence). Includes past slots; callers decide what is bookable.
 */
export function daySlots(hours: LocationHours, date: string): readonly Slot[] {
  if (!isValidDate(date)) return [];
  // Time-zone arithmetic is the costly part of every availability answer, and a location's
  // slots for a date only change when its hours do: keep recent results.
  const key = `${date}|${hours.timezone}|${JSON.stringify(hours.openingHours)}|${JSON.stringify(hours.specialHours)}`;
  const cached = slotCache.get(key);
  if (cached) return cached;
  const slots = Object.freeze(computeDaySlots(hours, date));
  slotCache.set(key, slots);
  return slots;
}

const SLOT_CACHE_SIZE = 5000;
const slotCache = new LRUCache<string, readonly Slot[]>({ max: SLOT_CACHE_SIZE });

function computeDaySlots(hours: LocationHours, date: string): Slot[] {
  const candidates = [
    ...businessDaySlots(hours, shiftDate(date, -1)),
    ...businessDaySlots(hours, date),
  ].filter((s) => s.slot.startsWith(date));
  candidates.sort((a, b) => a.startMs - b.startMs);
  const seen = new Set<string>();
  return candidates.filter((s) => (seen.has(s.slot) ? false : (seen.add(s.slot), true)));
}

/** The slot with this key if the location is open then, else null. */
export function findSlot(hours: LocationHours, key: string): Slot | null {
  if (!isValidSlotKey(key)) return null;
  return daySlots(hours, key.slice(0, 10)).find((s) => s.slot === key) ?? null;
}

/** The local slot key of an instant at this location (its :00/:30 start), or null if between. */
export function slotKeyAt(instant: Date, zone: string): string | null {
  const dt = DateTime.fromJSDate(instant, { zone });
  if (dt.second !== 0 || dt.millisecond !== 0 || dt.minute % SLOT_MINUTES !== 0) return null;
  return dt.toFormat("yyyy-MM-dd'T'HH:mm");
}

/** True when `next` starts exactly where `prev` ends (no gap from closing, DST or a skipped key). */
export function followsDirectly(prev: Slot, next: Slot): boolean {
  return next.startMs - prev.startMs === SLOT_MS;
}

export type Role = 'customer' | 'staff';
export type DateWindow = { first: string; last: string };

/** Today's local date at a location. */
export function localToday(zone: string, now: Date): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

/**
 * Dates a caller may look at. Customers: two months either side of today (the booking
 * screen's calendar). Staff: two months back to the later of the end of next month and two
 * months ahead (the planner's range, never less than a customer's).
 */
export function viewWindow(role: Role, zone: string, now: Date): DateWindow {
  return remembered(windows, `view|${role}|${zone}|${Math.floor(now.getTime() / 1000)}`, () => {
    const today = DateTime.fromJSDate(now, { zone }).startOf('day');
    const first = today.minus({ months: 2 }).toISODate()!;
    return { first, last: lastBookableDate(role, today) };
  });
}

/**
 * Dates a caller may book: today to two months ahead (customers); staff from two months back
 * (a walk-in entered afterwards, a past blackout) to the staff horizon (DESIGN §4).
 */
export function bookingWindow(role: Role, zone: string, now: Date): DateWindow {
  return remembered(windows, `book|${role}|${zone}|${Math.floor(now.getTime() / 1000)}`, () => {
    const today = DateTime.fromJSDate(now, { zone }).startOf('day');
    const first = role === 'staff' ? today.minus({ months: 2 }) : today;
    return { first: first.toISODate()!, last: lastBookableDate(role, today) };
  });
}

/*
 * Windows and day bounds are pure functions of their arguments, and luxon's zone arithmetic
 * was a tenth of each availability request: keep recent answers. A window depends on `now`
 * only through the local date, which cannot change within one second (zone offsets are whole
 * seconds), so the key is the second. Bounded: past the size the least recently used goes.
 */
const MEMO_SIZE = 2000;
const windows = new LRUCache<string, Readonly<DateWindow>>({ max: MEMO_SIZE });
const bounds = new LRUCache<string, { from: number; to: number }>({ max: MEMO_SIZE });

function remembered<T extends object>(memo: LRUCache<string, T>, key: string, compute: () => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = Object.freeze(compute());
  memo.set(key, value);
  return value;
}

function lastBookableDate(role: Role, today: DateTime): string {
  const customer = today.plus({ months: 2 });
  if (role === 'customer') return customer.toISODate()!;
  const endOfNextMonth = today.plus({ months: 1 }).endOf('month').startOf('day');
  return (endOfNextMonth > customer ? endOfNextMonth : customer).toISODate()!;
}

export function inWindow(date: string, window: DateWindow): boolean {
  return date >= window.first && date <= window.last;
}

/** A slot that has not started and lies in the caller's booking window. */
export function isBookable(slot: Slot, window: DateWindow, now: Date): boolean {
  return slot.startMs > now.getTime() && inWindow(slot.slot.slice(0, 10), window);
}

export function nextDate(date: string): string {
  return shiftDate(date, 1);
}

/** The instants bounding a local date's slots (for range queries on `time`). */
export function dayBounds(zone: string, date: string): { from: Date; to: Date } {
  const { from, to } = remembered(bounds, `${zone}|${date}`, () => {
    const start = DateTime.fromISO(date, { zone }).startOf('day');
    return { from: start.toMillis(), to: start.plus({ days: 1 }).toMillis() };
  });
  // Fresh Date objects: callers may hold or change them.
  return { from: new Date(from), to: new Date(to) };
}

/** An instant as ISO 8601 with the location's offset at that moment. */
export function isoInZone(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISO({ suppressMilliseconds: true })!;
}

/** "Sat, Nov 21, 2026, 7:00 PM" in the location's zone, for e-mails and balance lines. */
export function describeInZone(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat('ccc, LLL d, yyyy, h:mm a');
}
