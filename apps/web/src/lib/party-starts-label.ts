import { DateTime } from 'luxon';
import type { Party } from '@paddock/contract/races';

// How a waiting party's start reads (decision 0101): the parties screen and the launcher say it.

/** "Starts 7:00 PM" today, "Starts Sat, Nov 28, 7:00 PM" on another day, with the zone's name. */
export function startsLabel(party: Pick<Party, 'starts_at'>, zone: string): string {
  if (!party.starts_at) return '';
  const at = DateTime.fromISO(party.starts_at, { zone });
  const today = at.hasSame(DateTime.now().setZone(zone), 'day');
  return `Starts ${at.toFormat(today ? 'h:mm a ZZZZ' : 'ccc, LLL d, h:mm a ZZZZ')}`;
}
