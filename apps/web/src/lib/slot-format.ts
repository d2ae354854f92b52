// Built on Intl rather than luxon: these helpers are on the booking screen's first paint, and
// luxon is about 21 KiB gzip of it (decision 0045). The results are luxon's, which
// slot-format.test.ts checks against luxon itself.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const formats = new Map<string, Intl.DateTimeFormat>();

/** The options this file uses; each is part of the cache key. */
type FormatOptions = Pick<
  Intl.DateTimeFormatOptions,
  | 'timeZone'
  | 'hourCycle'
  | 'year'
  | 'month'
  | 'day'
  | 'weekday'
  | 'hour'
  | 'minute'
  | 'timeZoneName'
>;

/**
 * One cached formatter per options (building them costs more than using them). The key is the
 * locale and the options' values in a fixed order: JSON of the options on every call was the
 * booking grid's largest cost in a profile (it formats every slot of every seat).
 */
function formatter(locale: string | undefined, options: FormatOptions) {
  const key = `${locale}|${options.timeZone}|${options.hourCycle}|${options.year}|${options.month}|${options.day}|${options.weekday}|${options.hour}|${options.minute}|${options.timeZoneName}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

/** The wall clock of an instant in an IANA zone. */
function wallClockIn(ms: number, zone: string): WallClock {
  const parts = formatter('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

/** The zone's offset from UTC at an instant, in ms (what luxon's IANAZone.offset gives). */
function offsetAt(ms: number, zone: string): number {
  const w = wallClockIn(ms, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return asUtc - (ms - (((ms % 60_000) + 60_000) % 60_000));
}

/** The instant a seat-local `YYYY-MM-DDTHH:mm` names in a zone (luxon's two-guess rule). */
function instantOf(slot: string, zone: string): number {
  const wall = Date.parse(`${slot.slice(0, 16)}Z`);
  const first = wall - offsetAt(wall, zone);
  const second = offsetAt(first, zone);
  return wall - second;
}

/**
 * Slots are named by their seat-local start `YYYY-MM-DDTHH:mm` (DESIGN §3): formatting the key
 * itself shows the venue's wall-clock time whatever the browser's zone is.
 */
function local(slot: string): Date {
  return new Date(Date.parse(`${slot.slice(0, 16)}Z`));
}

/** `2026-11-24T14:00` → `Tuesday, November 24, 2026`. */
export function formatSlotDate(slot: string): string {
  const date = local(slot);
  const weekday = formatter(undefined, { timeZone: 'UTC', weekday: 'long' }).format(date);
  const month = formatter(undefined, { timeZone: 'UTC', month: 'long' }).format(date);
  return `${weekday}, ${month} ${date.getUTCDate()}, ${pad(date.getUTCFullYear(), 4)}`;
}

/** `2026-11-24T14:00` → `2:00 PM` (the spec's 'h:mm a'). */
export function formatSlotTime(slot: string): string {
  const date = local(slot);
  const hour = date.getUTCHours();
  const meridiem = formatter(undefined, { timeZone: 'UTC', hour: 'numeric', hourCycle: 'h12' })
    .formatToParts(date)
    .find((p) => p.type === 'dayPeriod')?.value;
  return `${hour % 12 || 12}:${pad(date.getUTCMinutes())} ${meridiem ?? (hour < 12 ? 'AM' : 'PM')}`;
}

/** `2026-11-24T14:00` → `Tuesday, November 24, 2026 at 2:00 PM`. */
export function formatSlotDateTime(slot: string): string {
  return `${formatSlotDate(slot)} at ${formatSlotTime(slot)}`;
}

/** `2026-11-24T14:00` → `2026-11-24 2:00 PM` (the spec's 'YYYY-MM-DD' and 'h:mm a'). */
export function formatSlotShort(slot: string): string {
  return `${slot.slice(0, 10)} ${formatSlotTime(slot)}`;
}

/** Spec §9: slots start at :00 and :30; anything at :15 or :45 is hidden. */
export function isHalfHourSlot(slot: string): boolean {
  const minutes = slot.slice(14, 16);
  return minutes === '00' || minutes === '30';
}

/** The seat-local key of an instant (ms since the epoch) at a location: what the server calls that slot. */
export function slotKeyAt(ms: number, zone: string): string {
  const w = wallClockIn(ms, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/**
 * An instant (ISO 8601 with its offset) as `YYYY-MM-DD h:mm a` on the clock of `zone` (luxon's
 * `setZone(zone).toFormat('yyyy-MM-dd h:mm a')`).
 */
export function formatInstantShort(iso: string, zone: string): string {
  return formatSlotShort(slotKeyAt(Date.parse(iso), zone));
}

/** An instant as `h:mm a` on this device's clock (luxon's `fromISO(iso).toFormat('h:mm a')`). */
export function formatInstantTime(iso: string): string {
  return formatSlotTime(slotKeyAt(Date.parse(iso), deviceZone()));
}

/** The slot keys of a run of `count` back-to-back slots starting at the instant `time`. */
export function runSlots(time: string, count: number, zone: string, minutes = 30): string[] {
  const start = Date.parse(time);
  return Array.from({ length: count }, (_, i) => slotKeyAt(start + minutes * 60_000 * i, zone));
}

/** Today's date `YYYY-MM-DD` at a location. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return slotKeyAt(now.getTime(), zone).slice(0, 10);
}

/** A `YYYY-MM-DD` as a local Date at midnight, the way the month calendar counts days. */
export function dateFromIso(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** The inverse of dateFromIso. */
export function isoFromDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A `YYYY-MM-DD` moved by whole months (clamped at month ends, as luxon does). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(month + 1)}-${pad(Math.min(d, lastDay))}`;
}

/** The zone this device shows times in. */
export function deviceZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether the browser shows a different zone than the venue's (staff §9 warns about it). */
export function browserZoneDiffers(zone: string): boolean {
  return deviceZone() !== zone;
}

/** `Paddock Brighton · GMT (Europe/London)`: where a booking is and which clock its times use. */
export function formatVenueZone(slot: string, venue: string, zone: string): string {
  const name = formatter(undefined, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(instantOf(slot, zone))
    .find((p) => p.type === 'timeZoneName')?.value;
  return `${venue} · ${name} (${zone})`;
}

/** `2026-03-01` → `March 1, 2026` (luxon's DATE_FULL in the device's locale). */
export function formatIsoDateFull(iso: string): string {
  return formatter(undefined, { year: 'numeric', month: 'long', day: 'numeric' }).format(
    dateFromIso(iso),
  );
}
