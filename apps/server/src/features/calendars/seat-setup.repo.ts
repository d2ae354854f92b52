import { and, asc, count, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { reservations } from '../../db/schema/booking';
import { calendarTypes, calendars, locations } from '../../db/schema/venue';
import type { Queryable } from '../../plugins/payments/charge-card';
import { seatColumns, type SeatRow } from './calendars.repo';

export type TypeRow = typeof calendarTypes.$inferSelect;
export type TypeInsert = typeof calendarTypes.$inferInsert;
export type SeatInsert = typeof calendars.$inferInsert;
export type SeatAdminRow = SeatRow & {
  active: boolean;
  sortOrder: number;
  steamId: string | null;
};

const adminColumns = {
  ...seatColumns,
  active: calendars.active,
  sortOrder: calendars.sortOrder,
  steamId: calendars.steamId,
};

/** Drops undefined values: an absent field is left as it is. */
const defined = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;

export async function insertType(db: Queryable, values: TypeInsert): Promise<TypeRow> {
  const [row] = await db.insert(calendarTypes).values(values).returning();
  return row;
}

export async function findType(db: Queryable, id: number): Promise<TypeRow | null> {
  const [row] = await db.select().from(calendarTypes).where(eq(calendarTypes.id, id));
  return row ?? null;
}

export async function updateType(
  db: Queryable,
  id: number,
  values: Partial<TypeInsert>,
): Promise<TypeRow | null> {
  const changes = defined(values);
  if (Object.keys(changes).length === 0) {
    const [row] = await db.select().from(calendarTypes).where(eq(calendarTypes.id, id));
    return row ?? null;
  }
  const [row] = await db
    .update(calendarTypes)
    .set(changes)
    .where(eq(calendarTypes.id, id))
    .returning();
  return row ?? null;
}

export async function typeExists(db: Queryable, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: calendarTypes.id })
    .from(calendarTypes)
    .where(eq(calendarTypes.id, id));
  return !!row;
}

export async function locationExists(db: Queryable, id: number): Promise<boolean> {
  const [row] = await db.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
  return !!row;
}

/** Every seat of a location, inactive ones too, in display order. */
export function locationSeats(db: Db, locationId: number): Promise<SeatAdminRow[]> {
  return db
    .select(adminColumns)
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(eq(calendars.locationId, locationId))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id));
}

export async function findSeatAdmin(db: Queryable, id: number): Promise<SeatAdminRow | null> {
  const [row] = await db
    .select(adminColumns)
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(eq(calendars.id, id));
  return row ?? null;
}

/**
 * The seat's location, locking the row against new bookings: a booking's foreign key check
 * holds a share lock on the seat until it commits, so this waits for bookings in flight and
 * holds new ones back until the caller's transaction ends.
 */
export async function lockSeat(db: Queryable, id: number): Promise<{ locationId: number } | null> {
  const [row] = await db
    .select({ locationId: calendars.locationId })
    .from(calendars)
    .where(eq(calendars.id, id))
    .for('update');
  return row ?? null;
}

/** Live reservations (blackouts too) of the seat that start at or after `now`. */
export async function countFutureReservations(
  db: Queryable,
  calendarId: number,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reservations)
    .where(
      and(
        eq(reservations.calendarId, calendarId),
        gte(reservations.time, now),
        isNull(reservations.cancelledAt),
      ),
    );
  return row.n;
}

export async function insertSeat(db: Queryable, values: SeatInsert): Promise<number> {
  const [row] = await db.insert(calendars).values(values).returning({ id: calendars.id });
  return row.id;
}

export async function updateSeat(db: Queryable, id: number, values: Partial<SeatInsert>) {
  const changes = defined(values);
  if (Object.keys(changes).length === 0) return;
  await db.update(calendars).set(changes).where(eq(calendars.id, id));
}

/** The next display position at a location: after its last seat. */
export async function nextSortOrder(db: Queryable, locationId: number): Promise<number> {
  const [row] = await db
    .select({ last: sql<number | null>`max(${calendars.sortOrder})`.mapWith(Number) })
    .from(calendars)
    .where(eq(calendars.locationId, locationId));
  return row?.last === null || row?.last === undefined || Number.isNaN(row.last) ? 0 : row.last + 1;
}
