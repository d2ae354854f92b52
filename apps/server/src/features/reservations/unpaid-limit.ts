import { sql } from 'drizzle-orm';
import type { VenueSettings } from '@paddock/contract/venue';
import type { Db } from '../../db/client';
import { withinUnpaidLimit } from '../../lib/booking-rule-sql';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import { roleOf } from './role-of';

export const unpaidLimitMessage = (limit: number) =>
  `You can hold at most ${limit} unpaid bookings. Add a card that works, or pay for the bookings you have, before booking more.`;

/** Whose bookings the limit holds to: a customer's own; staff book for anyone. */
export const heldToUnpaidLimit = (caller: AuthUser) => roleOf(caller) !== 'staff';

/** The venue's settings, parsed (getSettings, or a request's cached copy: SettingsCache). */
export type SettingsLookup = () => Promise<VenueSettings>;

/** The limit as the settings parse it (mergeSettings: a stored value refused is the default). */
export async function unpaidLimitOf(settings: SettingsLookup): Promise<number> {
  return (await settings()).max_unpaid_reservations;
}

/**
 * A customer may hold only a few unpaid future bookings (venue setting
 * `max_unpaid_reservations`): without it, one account without a card could hold every seat of a
 * day. `adding` is how many unpaid bookings the call would add. The rule is the booking
 * statement's (lib/booking-rule-sql.ts withinUnpaidLimit), asked here on its own.
 */
export async function assertUnpaidLimit(
  db: Db,
  caller: AuthUser,
  userId: number,
  adding: number,
  now: Date,
  settings: SettingsLookup = () => getSettings(db),
): Promise<void> {
  if (adding === 0 || !heldToUnpaidLimit(caller)) return;
  const limit = await unpaidLimitOf(settings);
  const within = withinUnpaidLimit(
    sql`${userId}::int`,
    sql`${now.toISOString()}::timestamptz`,
    sql`${adding}::int`,
    sql`${limit}::int`,
  );
  const { rows } = await db.execute<{ within: boolean }>(sql`select ${within} as within`);
  if (!rows[0].within) throw ValidationError.nonField(unpaidLimitMessage(limit));
}
