import { sql } from 'drizzle-orm';
import {
  PARTY_START_DAYS_MAX,
  PARTY_START_FAR,
  PARTY_START_GAP_MINUTES,
  PARTY_START_OVERLAP,
  PARTY_START_PAST,
} from '@paddock/contract/races';
import { ValidationError } from '../../plugins/errors';
import type { Queryable } from '../../plugins/payments/charge-card';

// When a party starts (decision 0101): the rules of `starts_at`, in one place.

/** A time this close behind now (the form's clock, the wire) still counts as now. */
const GRACE_MS = 60_000;
const DAY_MS = 86_400_000;
const SEAT_IN_PARTY = 'This seat is already in a party.';

/**
 * The instant a party asks to start at: null for now (left out, empty, or a time that has just
 * come); a time further back or beyond the window is refused naming `starts_at`.
 */
export function partyStart(value: string | null | undefined, now = new Date()): Date | null {
  if (value === null || value === undefined) return null;
  const at = new Date(value);
  if (at.getTime() < now.getTime() - GRACE_MS)
    throw ValidationError.field('starts_at', PARTY_START_PAST);
  if (at.getTime() > now.getTime() + PARTY_START_DAYS_MAX * DAY_MS)
    throw ValidationError.field('starts_at', PARTY_START_FAR);
  return at.getTime() <= now.getTime() ? null : at;
}

/**
 * A seat may be in one started party and in later ones starting a slot apart. `start` null: the
 * party starts now (refused while the seat is in a started party, as before). The caller holds
 * the seat's lock. `field` names what the caller's request got wrong.
 */
export async function checkSeatFree(
  tx: Queryable,
  field: 'calendar' | 'starts_at',
  calendarId: number,
  start: Date | null,
  exceptParty: number | null = null,
) {
  const at = start ?? new Date();
  const result = await tx.execute<{ started: boolean; near: boolean }>(sql`
    select (p.starts_at is null or p.starts_at <= now()) as started,
      abs(extract(epoch from (coalesce(p.starts_at, p.created_at) - ${at.toISOString()}::timestamptz)))
        < ${PARTY_START_GAP_MINUTES * 60} as near
    from party_members m join parties p on p.id = m.party_id
    where m.calendar_id = ${calendarId}
      ${exceptParty === null ? sql`` : sql`and p.id <> ${exceptParty}`}`);
  if (start === null && result.rows.some((r) => r.started))
    throw ValidationError.field(field === 'starts_at' ? 'calendar' : field, SEAT_IN_PARTY);
  if (result.rows.some((r) => r.near)) throw ValidationError.field(field, PARTY_START_OVERLAP);
}
