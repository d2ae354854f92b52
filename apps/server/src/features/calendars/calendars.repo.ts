import { currentEventSql } from '../../lib/current-event-sql';
import {
  and,
  asc,
  count,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedPer } from '../../db/prepared';
import { reservations } from '../../db/schema/booking';
import { waitlistEntries } from '../../db/schema/refunds';
import { calendarTypes, calendars, locations } from '../../db/schema/venue';
import { liveOffer, WAITLIST_ENTRIES } from '../../lib/booking-rule-sql';
import { escapeLike } from '../../lib/sql-text';

export type LocationRow = typeof locations.$inferSelect;

export const seatColumns = {
  id: calendars.id,
  name: calendars.name,
  costCents: calendars.costCents,
  costUnit: calendars.costUnit,
  image: calendars.image,
  locationId: calendars.locationId,
  typeId: calendars.typeId,
  typeName: calendarTypes.name,
  typeImage: calendarTypes.image,
  typeDescription: calendarTypes.description,
  typeMinMinutes: calendarTypes.minMinutes,
  currency: sql<string>`(select l.currency from locations l where l.id = ${calendars.locationId})`,
  // The race event the seat runs now: its started party's event, else its own.
  eventId: currentEventSql(sql`${calendars.id}`).mapWith(Number),
};
export type SeatRow = {
  id: number;
  name: string;
  costCents: number;
  costUnit: string;
  image: string;
  locationId: number;
  typeId: number;
  typeName: string;
  typeImage: string;
  typeDescription: string;
  typeMinMinutes: number;
  currency: string;
  eventId: number | null;
};

export type SeatFilter = { search?: string; location?: number; typeIn?: number[]; ids?: number[] };

function seatWhere(filter: SeatFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(calendars.active, true)];
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(calendars.name, pattern), ilike(calendarTypes.name, pattern)));
  }
  if (filter.location !== undefined) conditions.push(eq(calendars.locationId, filter.location));
  if (filter.typeIn) conditions.push(inArray(calendars.typeId, filter.typeIn));
  if (filter.ids) conditions.push(inArray(calendars.id, filter.ids));
  return and(...conditions);
}

/** Active seats matching the filter, in the venue's order. */
export function findSeats(db: Db, filter: SeatFilter, page?: { limit: number; offset: number }) {
  const query = db
    .select(seatColumns)
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(seatWhere(filter))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

const locationSeatsQuery = preparedPer((db: Db) =>
  db
    .select(seatColumns)
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(and(eq(calendars.active, true), eq(calendars.locationId, sql.placeholder('location'))))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id))
    .prepare('location_seats'),
);

/** `findSeats(db, { location })`, prepared: the location screens ask it on every request. */
export function findLocationSeats(db: Db, location: number): Promise<SeatRow[]> {
  return locationSeatsQuery(db).execute({ location });
}

export async function countSeats(db: Db, filter: SeatFilter): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .where(seatWhere(filter));
  return row.n;
}

const seatWithLocationQuery = preparedPer((db: Db) =>
  db
    .select({ seat: seatColumns, location: locations })
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .where(and(eq(calendars.id, sql.placeholder('id')), eq(calendars.active, true)))
    .prepare('seat_with_location'),
);

export async function findSeatWithLocation(
  db: Db,
  id: number,
): Promise<{ seat: SeatRow; location: LocationRow } | null> {
  const [row] = await seatWithLocationQuery(db).execute({ id });
  return row ?? null;
}

export async function findLocations(db: Db, ids: number[]): Promise<LocationRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(locations).where(inArray(locations.id, ids));
}

const locationQuery = preparedPer((db: Db) =>
  db
    .select()
    .from(locations)
    .where(eq(locations.id, sql.placeholder('id')))
    .prepare('calendars_location'),
);

export async function findLocation(db: Db, id: number): Promise<LocationRow | null> {
  const [row] = await locationQuery(db).execute({ id });
  return row ?? null;
}

export type TakenSlot = {
  calendarId: number;
  slot: string;
  userId: number | null;
  paid: boolean;
  isBlackout: boolean;
};

const liveReservationsQuery = preparedPer((db: Db) =>
  db
    .select({
      calendarId: reservations.calendarId,
      slot: reservations.slot,
      userId: reservations.userId,
      paid: reservations.paid,
      isBlackout: reservations.isBlackout,
    })
    .from(reservations)
    .where(
      and(
        sql`${reservations.calendarId} = any(${sql.placeholder('calendarIds')})`,
        gte(reservations.time, sql.placeholder('from')),
        lt(reservations.time, sql.placeholder('to')),
        isNull(reservations.cancelledAt),
      ),
    )
    .prepare('live_reservations'),
);

/** Live reservations of these seats starting in [from, to). */
export async function liveReservations(
  db: Db,
  calendarIds: number[],
  from: Date,
  to: Date,
): Promise<TakenSlot[]> {
  if (calendarIds.length === 0) return [];
  return liveReservationsQuery(db).execute({ calendarIds, from, to });
}

/**
 * Seats held for someone on the waitlist at slots in [fromSlot, toSlot) (slot keys compare as
 * text), while the hold lasts (docs/decisions/0034-refunds-rest.md). Anyone but `holderId`
 * sees them as taken; the holder sees them as free.
 */
export async function heldForOthers(
  db: Db,
  calendarIds: number[],
  fromSlot: string,
  toSlot: string,
  holderId: number | null,
  now: Date,
): Promise<{ calendarId: number; slot: string }[]> {
  if (calendarIds.length === 0) return [];
  const rows = await db
    .select({
      calendarId: waitlistEntries.heldCalendarId,
      slot: waitlistEntries.slot,
      userId: waitlistEntries.userId,
    })
    .from(waitlistEntries)
    .where(
      and(
        liveOffer(WAITLIST_ENTRIES, sql`${now}`),
        inArray(waitlistEntries.heldCalendarId, calendarIds),
        gte(waitlistEntries.slot, fromSlot),
        lt(waitlistEntries.slot, toSlot),
      ),
    );
  return rows
    .filter((r) => r.userId !== holderId && r.calendarId !== null)
    .map((r) => ({ calendarId: r.calendarId!, slot: r.slot }));
}

export async function countTypes(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(calendarTypes);
  return row.n;
}

export function pageTypes(db: Db, limit: number, offset: number) {
  return db.select().from(calendarTypes).orderBy(asc(calendarTypes.id)).limit(limit).offset(offset);
}
