import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  like,
  lt,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../plugins/payments/charge-card';
import { preparedPer } from '../../db/prepared';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { creditEntries } from '../../db/schema/club';
import { calendarTypes, calendars, locations } from '../../db/schema/venue';
import { seatTakesBookings, stillOwedBy } from '../../lib/booking-rule-sql';
import { escapeLike } from '../../lib/sql-text';

export type ReservationInsert = typeof reservations.$inferInsert;

const creator = alias(users, 'creator');

const rowColumns = {
  id: reservations.id,
  calendarId: reservations.calendarId,
  slot: reservations.slot,
  time: reservations.time,
  userId: reservations.userId,
  subscriptionId: reservations.subscriptionId,
  paid: reservations.paid,
  amountCents: reservations.amountCents,
  bookingFeeCents: reservations.bookingFeeCents,
  taxCents: reservations.taxCents,
  isBlackout: reservations.isBlackout,
  notes: reservations.notes,
  createdById: reservations.createdById,
  checkoutId: reservations.checkoutId,
  attendance: reservations.attendance,
  cancelledAt: reservations.cancelledAt,
  // Paid with club credits: booked on a subscription, or its checkout spent credits (0096).
  paidWithCredits: sql<boolean>`(${reservations.subscriptionId} is not null or exists (select 1 from ${creditEntries} where ${creditEntries.checkoutId} = ${reservations.checkoutId} and ${creditEntries.delta} < 0))`,
  calendarName: calendars.name,
  locationId: calendars.locationId,
  timezone: locations.timezone,
  currency: locations.currency,
  locationName: locations.name,
  locationAddress: locations.address,
  user: {
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    racerName: users.racerName,
  },
  creator: {
    email: creator.email,
    firstName: creator.firstName,
    lastName: creator.lastName,
    racerName: creator.racerName,
  },
};

export type ReservationRow = {
  id: number;
  calendarId: number;
  slot: string;
  time: Date;
  userId: number | null;
  subscriptionId: number | null;
  paid: boolean;
  amountCents: number;
  /** The booking fee and sales tax inside `amountCents` (a desk booking's tax; 0 unknown). */
  bookingFeeCents: number;
  taxCents: number;
  isBlackout: boolean;
  notes: string;
  createdById: number | null;
  checkoutId: number | null;
  attendance: string | null;
  cancelledAt: Date | null;
  paidWithCredits: boolean;
  calendarName: string;
  locationId: number;
  timezone: string;
  currency: string;
  locationName: string;
  locationAddress: string;
  user: PersonName | null;
  creator: PersonName | null;
};
export type PersonName = {
  email: string;
  firstName: string;
  lastName: string;
  racerName: string;
};

export function selectRows(db: Queryable) {
  return db
    .select(rowColumns)
    .from(reservations)
    .innerJoin(calendars, eq(calendars.id, reservations.calendarId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .leftJoin(users, eq(users.id, reservations.userId))
    .leftJoin(creator, eq(creator.id, reservations.createdById));
}

export type ListFilter = {
  userId?: number;
  calendarId?: number;
  /** Not over yet at this instant. */
  endsAfter?: Date;
  slotPrefix?: string;
  isBlackout?: boolean;
  paid?: boolean;
};

function listWhere(filter: ListFilter): SQL | undefined {
  return and(
    isNull(reservations.cancelledAt),
    filter.userId !== undefined ? eq(reservations.userId, filter.userId) : undefined,
    filter.calendarId !== undefined ? eq(reservations.calendarId, filter.calendarId) : undefined,
    filter.endsAfter
      ? gt(reservations.time, new Date(filter.endsAfter.getTime() - 30 * 60_000))
      : undefined,
    filter.slotPrefix ? like(reservations.slot, `${escapeLike(filter.slotPrefix)}%`) : undefined,
    filter.isBlackout !== undefined ? eq(reservations.isBlackout, filter.isBlackout) : undefined,
    filter.paid !== undefined ? eq(reservations.paid, filter.paid) : undefined,
  );
}

export async function countReservations(db: Queryable, filter: ListFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reservations).where(listWhere(filter));
  return row.n;
}

export function pageReservations(
  db: Queryable,
  filter: ListFilter,
  descending: boolean,
  limit: number,
  offset: number,
): Promise<ReservationRow[]> {
  const dir = descending ? desc : asc;
  return selectRows(db)
    .where(listWhere(filter))
    .orderBy(dir(reservations.time), asc(reservations.calendarId), asc(reservations.id))
    .limit(limit)
    .offset(offset);
}

/**
 * Back-to-back reservations of one driver on one seat (same paid state) as groups: each group's
 * ids in time order. Islands: time minus row number × 30 min is constant along a run.
 */
function groupedSql(filter: ListFilter) {
  return sql`
    select array_agg(id order by time) as ids, min(time) as first_time, min(calendar_id) as calendar_id
    from (
      select ${reservations.id} as id, ${reservations.time} as time, ${reservations.calendarId} as calendar_id,
        ${reservations.userId} as user_id, ${reservations.isBlackout} as is_blackout, ${reservations.paid} as paid,
        ${reservations.time} - (row_number() over (
          partition by ${reservations.calendarId}, ${reservations.userId}, ${reservations.isBlackout}, ${reservations.paid}
          order by ${reservations.time}
        )) * interval '30 minutes' as island
      from ${reservations}
      where ${listWhere(filter)}
    ) runs
    group by calendar_id, user_id, is_blackout, paid, island`;
}

export async function countGroups(db: Queryable, filter: ListFilter): Promise<number> {
  const result = await db.execute<{ n: string }>(
    sql`select count(*) as n from (${groupedSql(filter)}) g`,
  );
  return Number(result.rows[0].n);
}

export async function pageGroups(
  db: Queryable,
  filter: ListFilter,
  descending: boolean,
  limit: number,
  offset: number,
): Promise<number[][]> {
  const order = descending ? sql`desc` : sql`asc`;
  const result = await db.execute<{ ids: number[] }>(
    sql`select ids from (${groupedSql(filter)}) g
        order by first_time ${order}, calendar_id asc limit ${limit} offset ${offset}`,
  );
  return result.rows.map((r) => r.ids.map(Number));
}

const rowsByIdsQuery = preparedPer((db: Queryable) =>
  selectRows(db)
    .where(sql`${reservations.id} = any(${sql.placeholder('ids')})`)
    .prepare('reservation_rows_by_ids'),
);

export function findRowsByIds(db: Queryable, ids: number[]): Promise<ReservationRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return rowsByIdsQuery(db).execute({ ids });
}

export async function findLiveRow(db: Queryable, id: number): Promise<ReservationRow | null> {
  const [row] = await selectRows(db).where(
    and(eq(reservations.id, id), isNull(reservations.cancelledAt)),
  );
  return row ?? null;
}

/** Postgres unique_violation on the live (calendar, slot) index. */
export function isSlotTaken(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (pg.code === '23505' && pg.constraint === 'reservations_live_calendar_slot') return true;
  }
  return false;
}

export async function insertReservations(
  db: Queryable,
  values: ReservationInsert[],
): Promise<number[]> {
  if (values.length === 0) return [];
  // Written in seat and slot order, so two inserts of the same seats lock the live index and
  // their report_seat_days rows (decision 0044) in one order and cannot deadlock; the ids come
  // back in the caller's order.
  const order = values
    .map((_, i) => i)
    .sort((a, b) => {
      const [x, y] = [values[a], values[b]];
      return x.calendarId - y.calendarId || (x.slot < y.slot ? -1 : x.slot > y.slot ? 1 : 0);
    });
  const rows = await db
    .insert(reservations)
    .values(order.map((i) => values[i]))
    .returning({ id: reservations.id });
  const ids = new Array<number>(values.length);
  order.forEach((i, k) => (ids[i] = rows[k].id));
  return ids;
}

export async function updateReservation(
  db: Queryable,
  id: number,
  values: Partial<ReservationInsert>,
): Promise<void> {
  await db
    .update(reservations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

/** Cancels live reservations (the rows stay, with who and when). */
export async function cancelReservations(db: Queryable, ids: number[], byUserId: number) {
  if (ids.length === 0) return;
  await db
    .update(reservations)
    .set({ cancelledAt: new Date(), cancelledById: byUserId, updatedAt: new Date() })
    .where(and(inArray(reservations.id, ids), isNull(reservations.cancelledAt)));
}

export function cancelReservation(db: Queryable, id: number, byUserId: number) {
  return cancelReservations(db, [id], byUserId);
}

export type SeatForBooking = {
  id: number;
  name: string;
  costCents: number;
  typeName: string;
  /** Its type's shortest booking, in minutes. */
  typeMinMinutes: number;
  location: typeof locations.$inferSelect;
};

const activeSeatsQuery = preparedPer((db: Queryable) =>
  db
    .select({
      id: calendars.id,
      name: calendars.name,
      costCents: calendars.costCents,
      typeName: calendarTypes.name,
      typeMinMinutes: calendarTypes.minMinutes,
      location: locations,
    })
    .from(calendars)
    .innerJoin(calendarTypes, eq(calendarTypes.id, calendars.typeId))
    .innerJoin(locations, eq(locations.id, calendars.locationId))
    .where(
      and(sql`${calendars.id} = any(${sql.placeholder('ids')})`, seatTakesBookings(calendars.id)),
    )
    .prepare('active_seats_for_booking'),
);

export async function findActiveSeats(db: Queryable, ids: number[]): Promise<SeatForBooking[]> {
  if (ids.length === 0) return [];
  return activeSeatsQuery(db).execute({ ids });
}

export async function userExists(db: Queryable, id: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return !!row;
}

/** Unpaid and still owed (lib/booking-rule-sql.ts stillOwedBy), for queries on `reservations`. */
export const stillOwed: SQL = stillOwedBy('"reservations"');

/** Live, unpaid, non-blackout reservations of a user, oldest first. */
export function outstandingRows(db: Queryable, userId: number): Promise<ReservationRow[]> {
  return selectRows(db)
    .where(
      and(
        eq(reservations.userId, userId),
        stillOwed,
        eq(reservations.isBlackout, false),
        isNull(reservations.cancelledAt),
      ),
    )
    .orderBy(asc(reservations.time), asc(reservations.id));
}

export async function markPaid(
  db: Queryable,
  ids: number[],
  chargeId: number | null = null,
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(reservations)
    .set({ paid: true, updatedAt: new Date(), ...(chargeId === null ? {} : { chargeId }) })
    .where(and(inArray(reservations.id, ids), eq(reservations.paid, false)))
    .returning({ id: reservations.id });
  return rows.length;
}

/** Live reservations starting in [from, to), optionally at one location, in time order. */
export function rowsBetween(
  db: Queryable,
  from: Date,
  to: Date,
  locationId: number | undefined,
  limit: number,
): Promise<ReservationRow[]> {
  return selectRows(db)
    .where(
      and(
        isNull(reservations.cancelledAt),
        gte(reservations.time, from),
        lt(reservations.time, to),
        locationId === undefined ? undefined : eq(calendars.locationId, locationId),
      ),
    )
    .orderBy(asc(reservations.time), asc(reservations.calendarId))
    .limit(limit);
}
