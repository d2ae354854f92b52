import { DEFAULT_SETTINGS, venueSettings } from '@paddock/contract/venue';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import type { AuthUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import { roleOf } from './role-of';
import { stillOwed } from './reservations.repo';

const stored = venueSettings.shape.max_unpaid_reservations;

/**
 * The limit a booking statement applies itself (book-seat.ts): the stored setting when it is a
 * whole number the contract allows, else the default, as getSettings reads it.
 */
export const UNPAID_LIMIT_RANGE = {
  fallback: DEFAULT_SETTINGS.max_unpaid_reservations,
  min: stored.minValue ?? 1,
  max: stored.maxValue ?? DEFAULT_SETTINGS.max_unpaid_reservations,
};

export const unpaidLimitMessage = (limit: number) =>
  `You can hold at most ${limit} unpaid bookings. Add a card that works, or pay for the bookings you have, before booking more.`;

/** The customer's live, unpaid bookings still to come (blackouts and past slots aside). */
export async function unpaidFutureCount(db: Db, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reservations)
    .where(
      and(
        eq(reservations.userId, userId),
        stillOwed,
        eq(reservations.isBlackout, false),
        isNull(reservations.cancelledAt),
        gt(reservations.time, now),
      ),
    );
  return row.n;
}

/**
 * A customer may hold only a few unpaid future bookings (venue setting
 * `max_unpaid_reservations`): without it, one account without a card could hold every seat of a
 * day. `adding` is how many unpaid bookings the call would add. Staff book for anyone.
 */
export async function assertUnpaidLimit(
  db: Db,
  caller: AuthUser,
  userId: number,
  adding: number,
  now: Date,
): Promise<void> {
  if (adding === 0 || roleOf(caller) === 'staff') return;
  const { max_unpaid_reservations: limit } = await getSettings(db);
  if ((await unpaidFutureCount(db, userId, now)) + adding > limit)
    throw ValidationError.nonField(unpaidLimitMessage(limit));
}
