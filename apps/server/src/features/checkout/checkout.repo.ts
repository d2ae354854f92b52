import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '../../plugins/payments/charge-card';
import { users } from '../../db/schema/accounts';
import { checkouts, reservations } from '../../db/schema/booking';
import { calendars, locations } from '../../db/schema/venue';

export type CheckoutRow = typeof checkouts.$inferSelect;

export async function insertCheckout(
  db: Queryable,
  values: typeof checkouts.$inferInsert,
): Promise<CheckoutRow> {
  const [row] = await db.insert(checkouts).values(values).returning();
  return row;
}

/** The checkout, row-locked for the rest of the transaction: one processor at a time. */
export async function lockCheckout(db: Queryable, id: number): Promise<CheckoutRow | null> {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.id, id)).for('update');
  return row ?? null;
}

export async function updateCheckout(
  db: Queryable,
  id: number,
  values: Partial<typeof checkouts.$inferInsert>,
): Promise<void> {
  await db.update(checkouts).set(values).where(eq(checkouts.id, id));
}

export async function checkoutReservationIds(db: Queryable, checkoutId: number): Promise<number[]> {
  const rows = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.checkoutId, checkoutId), isNull(reservations.cancelledAt)))
    .orderBy(reservations.time, reservations.calendarId);
  return rows.map((r) => r.id);
}

/** (calendar, slot) pairs among these already held by a live reservation. */
export async function takenPairs(
  db: Queryable,
  pairs: { calendarId: number; slot: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .select({ calendarId: reservations.calendarId, slot: reservations.slot })
    .from(reservations)
    .where(
      and(
        inArray(reservations.calendarId, [...new Set(pairs.map((p) => p.calendarId))]),
        inArray(reservations.slot, [...new Set(pairs.map((p) => p.slot))]),
        isNull(reservations.cancelledAt),
      ),
    );
  return new Set(rows.map((r) => `${r.calendarId}|${r.slot}`));
}

export async function findUserContact(db: Queryable, id: number) {
  const [row] = await db
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      racerName: users.racerName,
    })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}

export async function seatNames(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: calendars.id, name: calendars.name })
    .from(calendars)
    .where(inArray(calendars.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function findLocation(db: Queryable, id: number) {
  const [row] = await db.select().from(locations).where(eq(locations.id, id));
  return row ?? null;
}

export async function findCheckout(db: Queryable, id: number): Promise<CheckoutRow | null> {
  const [row] = await db.select().from(checkouts).where(eq(checkouts.id, id));
  return row ?? null;
}
