import { DateTime } from 'luxon';
import type { Party } from '@paddock/contract/races';

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

/** "Starts 7:00 PM" today, "Starts Sat, Nov 28, 7:00 PM" on another day, with the zone's name. */
export function startsLabel(party: Pick<Party, 'starts_at'>, zone: string): string {
  if (!party.starts_at) return '';
  const at = DateTime.fromISO(party.starts_at, { zone });
  const today = at.hasSame(DateTime.now().setZone(zone), 'day');
  return `Starts ${at.toFormat(today ? 'h:mm a ZZZZ' : 'ccc, LLL d, h:mm a ZZZZ')}`;
}
