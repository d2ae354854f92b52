import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { charges } from './payments';

/**
 * The club: a monthly credits subscription (docs/decisions/0007-club-credits.md).
 *
 * status: `pending` (first charge under way, not a member yet) → `active` (paid, in good
 * standing) ⇄ `past_due` (a renewal was declined; retried daily) → `cancelled`.
 * A user has at most one membership that is not cancelled (a partial unique index), so two
 * racing enrolments give one membership and one charge.
 */
export const clubMemberships = pgTable(
  'club_memberships',
  {
    id: serial().primaryKey(),
    // Deleting a user deletes their membership: nothing is left for the renewal job to charge.
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text().$type<MembershipStatus>().notNull().default('pending'),
    /** Derived, never written: a member in good standing is an active one. */
    goodStanding: boolean().generatedAlwaysAs(sql`status = 'active'`),
    creditsPerMonth: integer().notNull(),
    /** What a month costs without the club discount: credits × 10 cents. */
    fullPriceCents: integer().notNull(),
    /** What each renewal charges (full price less the discount at enrolment). */
    priceCents: integer().notNull(),
    discountPercent: integer().notNull(),
    /** Day of month of the enrolment (venue zone); short months charge on their last day. */
    cycleDay: integer().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The cycle date the next charge is for (YYYY-MM-DD, venue zone). */
    nextChargeOn: date().notNull(),
    /** Declined attempts for the cycle now due; part of the retry's idempotency key. */
    failedAttempts: integer().notNull().default(0),
    /** Venue-local day of the last declined attempt: retries wait for the next day. */
    lastAttemptOn: date(),
    /** Sum over paid cycles of (full price − price paid): what an early cancel charges back. */
    discountsGivenCents: integer().notNull().default(0),
    cyclesPaid: integer().notNull().default(0),
    /** Declined charge-back attempts; part of the charge-back's idempotency key. */
    chargebackFailures: integer().notNull().default(0),
    cancelledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('club_memberships_one_live_per_user')
      .on(t.userId)
      .where(sql`${t.status} <> 'cancelled'`),
    index('club_memberships_due')
      .on(t.nextChargeOn)
      .where(sql`${t.status} in ('active', 'past_due')`),
    check('club_memberships_cycle_day', sql`${t.cycleDay} between 1 and 31`),
  ],
);

export type MembershipStatus = 'pending' | 'active' | 'past_due' | 'cancelled';

/**
 * Every change of a user's credits (the history); `creditBalances` caches the sum and is
 * written in the same transaction as each entry.
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Positive: credits added (enrolment, renewal); negative: redeemed or expired. */
    delta: integer().notNull(),
    reason: text().$type<CreditReason>().notNull(),
    membershipId: integer().references(() => clubMemberships.id, { onDelete: 'set null' }),
    chargeId: integer().references(() => charges.id, { onDelete: 'set null' }),
    /** The booking paid with these credits (no foreign key: reservations belong to booking). */
    reservationId: integer(),
    checkoutId: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_entries_user').on(t.userId, t.createdAt),
    // Whether a checkout's bookings were paid with credits (decision 0096); built concurrently.
    index('credit_entries_checkout')
      .on(t.checkoutId)
      .where(sql`checkout_id is not null`),
  ],
);

export type CreditReason =
  'enrolment' | 'renewal' | 'checkout' | 'reservation' | 'cancellation' | 'refund';

/** A user's redeemable credits; never negative, so a redemption is one conditional UPDATE. */
export const creditBalances = pgTable(
  'credit_balances',
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_balances_not_negative', sql`${t.balance} >= 0`)],
);
