import { and, asc, desc, eq, inArray, isNull, like, lte, ne, or, sql, count } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { clubMemberships } from '../../db/schema/club';
import { cards, charges, paymentChallenges } from '../../db/schema/payments';
import type { Queryable } from '../../plugins/payments/charge-card';

export type MembershipRow = typeof clubMemberships.$inferSelect;
type MembershipChanges = Partial<
  Omit<typeof clubMemberships.$inferInsert, 'id' | 'userId' | 'goodStanding'>
>;

/** The venue's time zone (moved to plugins/settings: backups use it too). */
export { venueTimezone } from '../../plugins/settings';

export async function userExists(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function hasCard(db: Queryable, userId: number, provider: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: cards.userId })
    .from(cards)
    .where(and(eq(cards.userId, userId), eq(cards.provider, provider)));
  return row !== undefined;
}

const notCancelled = ne(clubMemberships.status, 'cancelled');
const member = inArray(clubMemberships.status, ['active', 'past_due']);

/** The user's membership that is not cancelled (pending, active or past due), if any. */
export async function findLiveMembership(
  db: Queryable,
  userId: number,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(clubMemberships)
    .where(and(eq(clubMemberships.userId, userId), notCancelled));
  return row ?? null;
}

/** Locks the user's active or past-due membership for a change (cancel). */
export async function lockMembershipOf(
  db: Queryable,
  userId: number,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(clubMemberships)
    .where(and(eq(clubMemberships.userId, userId), member))
    .for('update');
  return row ?? null;
}

/**
 * The charge-back of a membership cancelled since `since` after the member's 3-D Secure
 * challenge (decision 0100): what the member's return from that challenge answers again.
 */
export async function challengedCancellation(db: Queryable, userId: number, since: Date) {
  const [row] = await db
    .select({ amountCents: charges.amountCents })
    .from(clubMemberships)
    .innerJoin(
      charges,
      and(
        eq(charges.userId, clubMemberships.userId),
        sql`${charges.idempotencyKey} like 'club-' || ${clubMemberships.id} || '-chargeback-%'`,
        eq(charges.errors, ''),
      ),
    )
    .innerJoin(paymentChallenges, eq(paymentChallenges.idempotencyKey, charges.idempotencyKey))
    .where(
      and(
        eq(clubMemberships.userId, userId),
        eq(clubMemberships.status, 'cancelled'),
        sql`${clubMemberships.cancelledAt} > ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(clubMemberships.id))
    .limit(1);
  return row ?? null;
}

/** The latest charge of a membership's cycles (`club-{id}-…`), even once the row is gone. */
export async function lastEnrolmentCharge(db: Queryable, userId: number, membershipId: number) {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, userId), like(charges.idempotencyKey, `club-${membershipId}-%`)))
    .orderBy(desc(charges.id))
    .limit(1);
  return row ?? null;
}

export async function findMembership(db: Queryable, id: number): Promise<MembershipRow | null> {
  const [row] = await db.select().from(clubMemberships).where(eq(clubMemberships.id, id));
  return row ?? null;
}

export async function lockMembership(db: Queryable, id: number): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(clubMemberships)
    .where(eq(clubMemberships.id, id))
    .for('update');
  return row ?? null;
}

/** Inserts a pending membership; null when the user already has one that is not cancelled. */
export async function insertPendingMembership(
  db: Queryable,
  values: Omit<typeof clubMemberships.$inferInsert, 'status' | 'goodStanding'>,
): Promise<MembershipRow | null> {
  const [row] = await db
    .insert(clubMemberships)
    .values({ ...values, status: 'pending' })
    .onConflictDoNothing({
      target: clubMemberships.userId,
      where: sql`${clubMemberships.status} <> 'cancelled'`,
    })
    .returning();
  return row ?? null;
}

export async function updateMembership(
  db: Queryable,
  id: number,
  changes: MembershipChanges,
): Promise<MembershipRow> {
  const [row] = await db
    .update(clubMemberships)
    .set(changes)
    .where(eq(clubMemberships.id, id))
    .returning();
  return row;
}

export async function deleteMembership(db: Queryable, id: number): Promise<void> {
  await db.delete(clubMemberships).where(eq(clubMemberships.id, id));
}

/** A user's memberships that count (active or past due), newest first. */
export async function countMemberships(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(clubMemberships)
    .where(and(eq(clubMemberships.userId, userId), member));
  return row.n;
}

export function pageOfMemberships(db: Queryable, userId: number, limit: number, offset: number) {
  return db
    .select()
    .from(clubMemberships)
    .where(and(eq(clubMemberships.userId, userId), member))
    .orderBy(desc(clubMemberships.id))
    .limit(limit)
    .offset(offset);
}

/**
 * Memberships with a charge due on `today` (venue-local): active ones whose cycle date has
 * come, and past-due ones not yet tried today.
 */
function isDue(today: string) {
  return and(
    lte(clubMemberships.nextChargeOn, today),
    or(
      eq(clubMemberships.status, 'active'),
      and(
        eq(clubMemberships.status, 'past_due'),
        or(isNull(clubMemberships.lastAttemptOn), sql`${clubMemberships.lastAttemptOn} < ${today}`),
      ),
    ),
  );
}

export async function dueMembershipIds(db: Queryable, today: string): Promise<number[]> {
  const rows = await db
    .select({ id: clubMemberships.id })
    .from(clubMemberships)
    .where(isDue(today))
    .orderBy(asc(clubMemberships.nextChargeOn), asc(clubMemberships.id));
  return rows.map((r) => r.id);
}

/**
 * Locks one due membership for its renewal, or null when another instance holds it (SKIP
 * LOCKED) or has already renewed it (the due test runs again under the lock).
 */
export async function lockDueMembership(
  db: Queryable,
  id: number,
  today: string,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(clubMemberships)
    .where(and(eq(clubMemberships.id, id), isDue(today)))
    .for('update', { skipLocked: true });
  return row ?? null;
}
