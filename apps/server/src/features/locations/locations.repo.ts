import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Queryable } from '../../plugins/payments/charge-card';
import { users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/venue';

export type LocationRow = typeof locations.$inferSelect;
export type LocationInsert = typeof locations.$inferInsert;

export async function countLocations(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(locations);
  return row.n;
}

export function pageLocations(db: Db, limit: number, offset: number): Promise<LocationRow[]> {
  return db.select().from(locations).orderBy(asc(locations.id)).limit(limit).offset(offset);
}

export async function findLocation(db: Queryable, id: number): Promise<LocationRow | null> {
  const [row] = await db.select().from(locations).where(eq(locations.id, id));
  return row ?? null;
}

export async function firstLocation(db: Db): Promise<LocationRow | null> {
  const [row] = await db.select().from(locations).orderBy(asc(locations.id)).limit(1);
  return row ?? null;
}

export async function userLocationId(db: Db, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ locationId: users.locationId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.locationId ?? null;
}

export async function insertLocation(db: Queryable, values: LocationInsert): Promise<LocationRow> {
  const [row] = await db.insert(locations).values(values).returning();
  return row;
}

export async function updateLocation(
  db: Queryable,
  id: number,
  values: Partial<typeof locations.$inferInsert>,
): Promise<LocationRow | null> {
  // An empty PATCH (`{}`, or only undefined fields) changes nothing and answers the location.
  const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return findLocation(db, id);
  const [row] = await db.update(locations).set(changes).where(eq(locations.id, id)).returning();
  return row ?? null;
}
