import { DateTime } from 'luxon';

/**
 * Slots are named by their seat-local start `YYYY-MM-DDTHH:mm` (DESIGN §3): formatting the key
 * itself shows the venue's wall-clock time whatever the browser's zone is.
 */
function local(slot: string): DateTime {
  return DateTime.fromISO(slot, { zone: 'UTC' });
}

/** `2026-11-24T14:00` → `Tuesday, November 24, 2026`. */
export function formatSlotDate(slot: string): string {
  return local(slot).toFormat('cccc, LLLL d, yyyy');
}

/** `2026-11-24T14:00` → `2:00 PM` (the spec's 'h:mm a'). */
export function formatSlotTime(slot: string): string {
  return local(slot).toFormat('h:mm a');
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

/** The seat-local key of an instant at a location: what the server calls that slot. */
export function slotKeyAt(instant: DateTime, zone: string): string {
  return instant.setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** The slot keys of a run of `count` back-to-back slots starting at the instant `time`. */
export function runSlots(time: string, count: number, zone: string, minutes = 30): string[] {
  const start = DateTime.fromISO(time, { setZone: true });
  return Array.from({ length: count }, (_, i) =>
    slotKeyAt(start.plus({ minutes: minutes * i }), zone),
  );
}

/** Today's date `YYYY-MM-DD` at a location. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

/** A `YYYY-MM-DD` as a local Date at midnight, the way the month calendar counts days. */
export function dateFromIso(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** The inverse of dateFromIso. */
export function isoFromDate(date: Date): string {
  return DateTime.fromJSDate(date).toISODate()!;
}

/** A `YYYY-MM-DD` moved by whole months (clamped at month ends, as luxon does). */
export function addMonths(iso: string, months: number): string {
  return DateTime.fromISO(iso).plus({ months }).toISODate()!;
}

/** Whether the browser shows a different zone than the venue's (staff §9 warns about it). */
export function browserZoneDiffers(zone: string): boolean {
  return DateTime.local().zoneName !== DateTime.local().setZone(zone).zoneName;
}

/** `Paddock Brighton · GMT (Europe/London)`: where a booking is and which clock its times use. */
export function formatVenueZone(slot: string, venue: string, zone: string): string {
  const local = DateTime.fromISO(slot, { zone });
  return `${venue} · ${local.toFormat('ZZZZ')} (${zone})`;
}
