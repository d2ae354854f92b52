import { DateTime } from 'luxon';
import { useVenueConfig } from './venue-config';

/**
 * Staff screens show times in the venue's own zone, whatever the browser's (a manager checking
 * the trail from home abroad, a tablet set to UTC), and say which: "Nov 27, 2026, 4:27 PM PST".
 * The planner and bookings use their location's zone (decision 0088 of the desk day).
 */
export function venueTime(zone: string) {
  const at = (iso: string) => DateTime.fromISO(iso, { zone });
  return {
    zone,
    /** Date and time with the zone's short name. */
    dateTime: (iso: string) => at(iso).toFormat('LLL d, yyyy, h:mm a ZZZZ'),
    /** A date alone (the zone decides which day). */
    date: (iso: string) => at(iso).toFormat('LLL d, yyyy'),
    /** The time now, to the second, with the zone's short name. */
    nowWithSeconds: () => DateTime.now().setZone(zone).toFormat('h:mm:ss a ZZZZ'),
  };
}

export function useVenueTime() {
  return venueTime(useVenueConfig().default_timezone);
}
