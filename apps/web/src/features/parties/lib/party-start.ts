import { DateTime } from 'luxon';

// A party's start time in the venue's zone (decision 0101): the form speaks the venue's wall
// clock (`2026-11-27T19:00`, what a datetime-local field holds), the API an instant.

/** The instant of a venue-zone wall time; null for an empty field ("Now"). */
export function startInstant(local: string, zone: string): string | null {
  if (!local) return null;
  return DateTime.fromISO(local, { zone }).toUTC().toISO();
}

/** The field's value for an instant (its wall time in the zone). */
export function startField(iso: string | null, zone: string): string {
  return iso ? DateTime.fromISO(iso, { zone }).toFormat("yyyy-LL-dd'T'HH:mm") : '';
}

/** The field's earliest value: this minute at the venue. */
export const earliestStart = (zone: string) =>
  DateTime.now().setZone(zone).toFormat("yyyy-LL-dd'T'HH:mm");
