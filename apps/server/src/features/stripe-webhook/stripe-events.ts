import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import { stripeEvents } from '../../db/schema/payments';

/** A failed handler is tried again this much later (and the event is anyone's after a crash). */
export const LEASE_MS = 5 * 60_000;

export type StoredEvent = typeof stripeEvents.$inferSelect;

/** Stores a verified event once by its id; false when it was stored before (a redelivery). */
export async function storeEvent(db: Db, event: Stripe.Event): Promise<boolean> {
  const rows = await db
    .insert(stripeEvents)
    .values({ id: event.id, type: event.type, livemode: event.livemode === true, payload: event })
    .onConflictDoNothing({ target: stripeEvents.id })
    .returning({ id: stripeEvents.id });
  return rows.length > 0;
}

/**
 * The oldest event still to handle that no one holds, held for `LEASE_MS`: instances draining
 * together take different events, and one a crash left half-handled is taken again later.
 */
export async function claimNext(db: Db): Promise<StoredEvent | null> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update stripe_events set claimed_until = now() + ${`${LEASE_MS} milliseconds`}::interval,
      attempts = attempts + 1
    where id = (select id from stripe_events
      where handled_at is null and (claimed_until is null or claimed_until < now())
      order by received_at limit 1 for update skip locked)
    returning id`);
  if (!rows[0]) return null;
  const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.id, rows[0].id));
  return row ?? null;
}

export async function markHandled(db: Db, id: string) {
  await db
    .update(stripeEvents)
    .set({ handledAt: new Date(), lastError: '' })
    .where(eq(stripeEvents.id, id));
}

export async function markFailed(db: Db, id: string, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  await db
    .update(stripeEvents)
    .set({ lastError: message.slice(0, 1000) })
    .where(eq(stripeEvents.id, id));
}
