import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { cards } from '../../db/schema/payments';
import type { AttachedCard } from '../../plugins/payments/provider';

export type CardRow = typeof cards.$inferSelect;

export async function findCardOwner(db: Db, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The user's card at the current provider; a card left from another provider can't be charged. */
export async function findCard(db: Db, userId: number, provider: string) {
  const [row] = await db
    .select()
    .from(cards)
    .where(and(eq(cards.userId, userId), eq(cards.provider, provider)));
  return row;
}

/**
 * Stores the new card and answers the one it replaced. The user row is locked so two saves
 * racing each see the other's card as "previous" and the provider is told to drop it.
 */
export async function replaceCard(
  db: Db,
  userId: number,
  provider: string,
  card: AttachedCard,
): Promise<CardRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    const [previous] = await tx.select().from(cards).where(eq(cards.userId, userId));
    const values = { provider, ...card, createdAt: new Date() };
    await tx
      .insert(cards)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: cards.userId, set: values });
    return previous;
  });
}

export async function removeCard(db: Db, userId: number): Promise<CardRow | undefined> {
  const [removed] = await db.delete(cards).where(eq(cards.userId, userId)).returning();
  return removed;
}
