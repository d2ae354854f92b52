import { and, eq, gte, sql } from 'drizzle-orm';
import { CENTS_PER_CREDIT } from '@paddock/contract/club';
import {
  clubMemberships,
  creditBalances,
  creditEntries,
  type CreditReason,
} from '../db/schema/club';
import { users } from '../db/schema/accounts';
import { inGoodStanding } from '../lib/booking-rule-sql';
import { ValidationError } from './errors';
import type { Queryable } from './payments/charge-card';
import { preparedPer } from '../db/prepared';

/**
 * The club as booking sees it (docs/decisions/0007-club-credits.md): whether a user is a member
 * in good standing (booking fees waived, credits redeemed) and the credits ledger. The club
 * feature enrols, renews and cancels; booking only asks and redeems through here.
 */

// Asked on every booking: a prepared statement (see db/prepared.ts).
// The rule itself is the booking statement's (lib/booking-rule-sql.ts inGoodStanding).
const goodStandingQuery = preparedPer((db: Queryable) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('userId')), inGoodStanding(users.id)))
    .prepare('club_member_in_good_standing'),
);

export async function isClubMemberInGoodStanding(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await goodStandingQuery(db).execute({ userId });
  return row !== undefined;
}

export async function creditBalance(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ balance: creditBalances.balance })
    .from(creditBalances)
    .where(eq(creditBalances.userId, userId));
  return row?.balance ?? 0;
}

/** Credits a member in good standing may spend now; 0 for everyone else. */
export async function redeemableCredits(db: Queryable, userId: number): Promise<number> {
  if (!(await isClubMemberInGoodStanding(db, userId))) return 0;
  return creditBalance(db, userId);
}

/** Credits that pay for `cents` of seats: 10 cents each, a part-credit rounds up. */
export const creditsForCents = (cents: number) => Math.ceil(cents / CENTS_PER_CREDIT);

/**
 * How much of `seatsCents` a balance pays: credits go first, whole credits, never more than
 * the seats cost (fees and tax are not paid with credits).
 */
export function creditsTowards(
  balance: number,
  seatsCents: number,
): { creditsUsing: number; creditsValueCents: number } {
  const creditsUsing = Math.max(0, Math.min(balance, creditsForCents(seatsCents)));
  return {
    creditsUsing,
    creditsValueCents: Math.min(creditsUsing * CENTS_PER_CREDIT, seatsCents),
  };
}

type EntryRefs = {
  membershipId?: number | null;
  chargeId?: number | null;
  reservationId?: number | null;
  checkoutId?: number | null;
};

/** Adds credits (a paid month) and records why; returns the new balance. Use inside the caller's transaction. */
export async function addCredits(
  db: Queryable,
  input: { userId: number; credits: number; reason: CreditReason } & EntryRefs,
): Promise<number> {
  const [row] = await db
    .insert(creditBalances)
    .values({ userId: input.userId, balance: input.credits })
    .onConflictDoUpdate({
      target: creditBalances.userId,
      set: { balance: sql`${creditBalances.balance} + ${input.credits}`, updatedAt: sql`now()` },
    })
    .returning({ balance: creditBalances.balance });
  await db.insert(creditEntries).values({ ...input, delta: input.credits });
  return row.balance;
}

/**
 * Spends credits of a member in good standing, or does nothing and answers false (not a
 * member in good standing, or the balance no longer covers it). One conditional UPDATE, so
 * two bookings racing for the last credits cannot both spend them. Use inside the caller's
 * transaction, with the booking it pays for.
 */
export async function redeemCredits(
  db: Queryable,
  input: { userId: number; credits: number; reason: CreditReason } & EntryRefs,
): Promise<boolean> {
  if (input.credits <= 0) return true;
  const updated = await db
    .update(creditBalances)
    .set({ balance: sql`${creditBalances.balance} - ${input.credits}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(creditBalances.userId, input.userId),
        gte(creditBalances.balance, input.credits),
        inGoodStanding(creditBalances.userId),
      ),
    )
    .returning({ balance: creditBalances.balance });
  if (updated.length === 0) return false;
  await db.insert(creditEntries).values({ ...input, delta: -input.credits });
  return true;
}

/** Takes every remaining credit away (a cancelled membership); returns how many went. */
export async function expireCredits(
  db: Queryable,
  input: { userId: number; reason: CreditReason } & EntryRefs,
): Promise<number> {
  const [before] = await db
    .select({ balance: creditBalances.balance })
    .from(creditBalances)
    .where(eq(creditBalances.userId, input.userId))
    .for('update');
  if (!before || before.balance === 0) return 0;
  await db
    .update(creditBalances)
    .set({ balance: 0, updatedAt: sql`now()` })
    .where(eq(creditBalances.userId, input.userId));
  await db.insert(creditEntries).values({ ...input, delta: -before.balance });
  return before.balance;
}

/**
 * Pays one booked seat-slot with a club subscription (the reservation page's club select):
 * the subscription must be the user's, in good standing, with credits for the seat (its cost
 * at 10 cents a credit: 250 for a standard $25 session). Call inside the transaction that
 * inserted the reservation; a refusal throws a 400 naming `subscription` and rolls it back.
 */
export async function paySessionWithSubscription(
  db: Queryable,
  input: { subscriptionId: number; userId: number; seatCostCents: number; reservationId: number },
): Promise<void> {
  const [membership] = await db
    .select({ id: clubMemberships.id, status: clubMemberships.status })
    .from(clubMemberships)
    .where(
      and(eq(clubMemberships.id, input.subscriptionId), eq(clubMemberships.userId, input.userId)),
    );
  if (!membership || membership.status === 'cancelled' || membership.status === 'pending')
    throw ValidationError.field(
      'subscription',
      `Invalid pk "${input.subscriptionId}" - object does not exist.`,
    );
  if (membership.status !== 'active')
    throw ValidationError.field('subscription', SUBSCRIPTION_NOT_IN_GOOD_STANDING);
  const paid = await redeemCredits(db, {
    userId: input.userId,
    credits: creditsForCents(input.seatCostCents),
    reason: 'reservation',
    membershipId: membership.id,
    reservationId: input.reservationId,
  });
  if (!paid) throw ValidationError.field('subscription', NO_SESSIONS_REMAINING);
}

export const SUBSCRIPTION_NOT_IN_GOOD_STANDING =
  'This subscription is not in good standing. Please review your payment method.';
export const NO_SESSIONS_REMAINING = 'This subscription has no sessions remaining.';
export const CREDITS_CHANGED = 'Your club credits no longer cover this booking. Please review it.';
