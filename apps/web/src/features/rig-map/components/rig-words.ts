import type { RigMap, RigSession, RigTile } from '@paddock/contract/rig-map';
import { formatSlotTime, slotKeyAt } from '../../../lib/slot-format';

/** `7:00 PM` on the venue's clock. */
export const venueTime = (iso: string, zone: string) =>
  formatSlotTime(slotKeyAt(Date.parse(iso), zone));

/** Whole minutes left of a session at `nowMs` (rounded up; 0 once it has ended). */
export function minutesLeft(session: Pick<RigSession, 'ends'>, nowMs: number): number {
  return Math.max(0, Math.ceil((Date.parse(session.ends) - nowMs) / 60_000));
}

/** "23 min left", "1 h 05 min left". */
export function timeLeftWords(minutes: number): string {
  if (minutes < 60) return `${minutes} min left`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min left`;
}

/** Whom a session is for, as the desk says it. */
export const whoOf = (session: RigSession) => session.name ?? 'A customer';

/**
 * The seats a session on `from` can move to for the rest of its time: in service, nobody on them
 * now, and their next booking (if any) starting after the session ends; connected rigs first.
 */
export function freeSeatsFor(map: RigMap, from: RigTile): RigTile[] {
  const session = from.current;
  if (!session) return [];
  return map.tiles
    .filter(
      (tile) =>
        tile.calendar !== from.calendar &&
        tile.state !== 'out_of_service' &&
        tile.current === null &&
        (tile.next === null || Date.parse(tile.next.starts) >= Date.parse(session.ends)),
    )
    .sort((a, b) => Number(b.rig_connected) - Number(a.rig_connected));
}

/** "Offline for 12 min": from the agent's last word (null when it never told). */
export function offlineFor(tile: RigTile, nowMs: number): string | null {
  if (!tile.health.last_seen) return null;
  const minutes = Math.max(0, Math.floor((nowMs - Date.parse(tile.health.last_seen)) / 60_000));
  return `Offline for ${minutes} min during opening hours.`;
}

/** Free disk space, as a person reads it. */
export function diskWords(bytes: number): string {
  const gb = bytes / 1e9;
  return gb >= 10 ? `${Math.round(gb)} GB free` : `${gb.toFixed(1)} GB free`;
}
