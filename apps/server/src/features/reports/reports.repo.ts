import { asc, eq, sql } from 'drizzle-orm';
import { CENTS_PER_CREDIT } from '@paddock/contract/club-rules';
import type { Db } from '../../db/client';
import { calendars, locations } from '../../db/schema/venue';
import { PROVIDER_REFUND_PREFIX } from '../stripe-webhook/provider-refunds';

/**
 * The period as both the seat-local slot keys (`YYYY-MM-DDTHH:mm`, exact: what bookings are
 * selected by) and instants (what club and voucher charges are selected by).
 */
export type Period = {
  locationId: number;
  timezone: string;
  fromSlot: string;
  toSlotExclusive: string;
  start: Date;
  end: Date;
};

export async function findLocation(db: Db, id: number) {
  const [row] = await db
    .select({ id: locations.id, name: locations.name, timezone: locations.timezone })
    .from(locations)
    .where(eq(locations.id, id));
  return row ?? null;
}

export function seatsOf(db: Db, locationId: number) {
  return db
    .select({ id: calendars.id, name: calendars.name })
    .from(calendars)
    .where(eq(calendars.locationId, locationId))
    .orderBy(asc(calendars.sortOrder), asc(calendars.id));
}

/** The location's seats, for the report tables' `calendar_id` ranges. */
const locationSeats = (p: Period) =>
  sql`array(select id from calendars where location_id = ${p.locationId})`;

/**
 * Live customer bookings (not cancelled, not blackouts) at the location in the period, by their
 * seat-local slot key.
 */
const liveBookings = (p: Period) => sql`
  r.calendar_id = any(${locationSeats(p)})
  and r.cancelled_at is null and not r.is_blackout
  and r.slot >= ${p.fromSlot} and r.slot < ${p.toSlotExclusive}`;

/** The location's seat-days in the period (report_seat_days: each seat's day of live bookings). */
const seatDays = (p: Period) => sql`
  d.calendar_id = any(${locationSeats(p)})
  and d.day >= ${p.fromSlot}::date and d.day < ${p.toSlotExclusive}::date`;

const HOUR_SUMS = sql.raw(
  Array.from({ length: 24 }, (_, h) => `sum(d.hours[${h + 1}])`).join(', '),
);

/**
 * Booked half-hours per seat and ISO weekday, one count per hour of the day (index 0 = 00:00).
 * The weekday is days since a Monday modulo 7.
 */
export async function bookedHours(db: Db, p: Period) {
  const result = await db.execute<{ seat: number; dow: number; hours: number[] }>(sql`
    select d.calendar_id as seat,
           ((d.day - date '2000-01-03') % 7 + 7) % 7 + 1 as dow,
           array[${HOUR_SUMS}]::int[] as hours
    from report_seat_days d
    where ${seatDays(p)}
    group by 1, 2`);
  return result.rows;
}

/**
 * Paid bookings per local day: what customers paid (fee and tax included) and the booking fees
 * inside it (kept on each reservation from its checkout item).
 */
export async function bookingTakings(db: Db, p: Period) {
  const result = await db.execute<{ day: string; cents: number; fees: number }>(sql`
    select d.day::text as day, sum(d.paid_cents)::int as cents, sum(d.fee_cents)::int as fees
    from report_seat_days d
    where ${seatDays(p)}
    group by 1`);
  return result.rows;
}

/**
 * The charges' quarter-hours in the period (report_charge_quarters, decision 0107). The period's
 * bounds are local midnights, which in every real time zone fall on a quarter-hour: whole
 * buckets, exact sums.
 */
const chargeQuarters = (p: Period) => sql`
  q.bucket >= ${p.start.toISOString()} and q.bucket < ${p.end.toISOString()}`;

/**
 * What the reports count, written once over the rollup's dimensions: a sale (club, voucher) is a
 * charge that succeeded at the provider (it gave a reference); money taken is that, or any
 * successful desk payment or desk refund (it has a method).
 */
const SOLD = sql`q.succeeded and q.referenced`;
const TAKEN = sql`q.succeeded and (q.method <> '' or q.referenced)`;

/** Successful card charges of one kind (club, voucher) per local day: venue-wide sales. */
export async function chargesByDay(db: Db, p: Period, kind: 'club' | 'voucher') {
  const result = await db.execute<{ day: string; cents: string }>(sql`
    select to_char(q.bucket at time zone ${p.timezone}, 'YYYY-MM-DD') as day,
           sum(q.amount_cents)::bigint as cents
    from report_charge_quarters q
    where ${chargeQuarters(p)} and q.kind = ${kind} and ${SOLD}
    group by 1`);
  return result.rows.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}

/**
 * Refunds made at the provider outside Paddock (decision 0084), per local day, negative: the
 * webhook records each as a refund line keyed `stripe-refund-…` (features/stripe-webhook).
 */
export async function providerRefundsByDay(db: Db, p: Period) {
  const result = await db.execute<{ day: string; cents: number }>(sql`
    select to_char(c.created_at at time zone ${p.timezone}, 'YYYY-MM-DD') as day,
           sum(c.amount_cents)::int as cents
    from charges c
    where c.kind = 'refund' and c.errors = '' and c.idempotency_key like ${`${PROVIDER_REFUND_PREFIX}%`}
      and c.created_at >= ${p.start.toISOString()} and c.created_at < ${p.end.toISOString()}
    group by 1`);
  return result.rows;
}

/**
 * Money that moved in the period per method: successful card charges and refunds (the provider
 * answered with a reference) and every desk payment and desk refund (refunds are negative).
 */
export async function takingsByMethod(db: Db, p: Period) {
  // A chain's year of takings passes 2^31 cents: summed as bigint, read back as a number.
  const result = await db.execute<{ method: string; cents: string }>(sql`
    select coalesce(nullif(q.method, ''), 'card') as method, sum(q.amount_cents)::bigint as cents
    from report_charge_quarters q
    where ${chargeQuarters(p)} and ${TAKEN}
    group by 1`);
  return result.rows.map((r) => ({ method: r.method, cents: Number(r.cents) }));
}

/**
 * What paid for bookings besides money, and the fees and tax inside them (issue 41): paid
 * checkouts' stored amounts (voucher discount, credits' value, each item's booking fee, sales
 * tax), and bookings paid with a club credit without a checkout, venue-wide, by when paid.
 */
export async function paidOtherwise(db: Db, p: Period) {
  const start = p.start.toISOString();
  const end = p.end.toISOString();
  const result = await db.execute<{
    voucher: string;
    credits: string;
    fees: string;
    tax: string;
    credit_bookings: string;
  }>(sql`
    select
      coalesce(sum((c.amounts->>'discountCents')::int), 0)::bigint as voucher,
      coalesce(sum((c.amounts->>'creditsValueCents')::int), 0)::bigint as credits,
      coalesce(sum((select sum((i->>'bookingFeeCents')::int) from jsonb_array_elements(c.items) i)), 0)::bigint as fees,
      coalesce(sum((c.amounts->>'salesTaxCents')::int), 0)::bigint as tax,
      (select coalesce(-sum(e.delta), 0) from credit_entries e
        where e.reason = 'reservation' and e.checkout_id is null
          and e.created_at >= ${start} and e.created_at < ${end})::bigint as credit_bookings
    from checkouts c
    where c.status = 'paid' and c.processed_at >= ${start} and c.processed_at < ${end}`);
  const row = result.rows[0];
  return {
    voucher: Number(row.voucher),
    credits: Number(row.credits) + Number(row.credit_bookings) * CENTS_PER_CREDIT,
    fees: Number(row.fees),
    tax: Number(row.tax),
  };
}

export async function clubCounts(db: Db, p: Period) {
  const start = p.start.toISOString();
  const end = p.end.toISOString();
  const result = await db.execute<{ joined: number; cancelled: number; good: number }>(sql`
    select
      count(*) filter (where status <> 'pending' and started_at >= ${start} and started_at < ${end})::int as joined,
      count(*) filter (where cancelled_at >= ${start} and cancelled_at < ${end})::int as cancelled,
      count(*) filter (where status = 'active')::int as good
    from club_memberships`);
  return result.rows[0];
}

export async function noShows(db: Db, p: Period, limit: number) {
  const result = await db.execute<{
    reservation: number;
    slot: string;
    seat: string;
    user: number | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    total: number;
  }>(sql`
    select r.id as reservation, r.slot, c.name as seat, r.user_id as user,
           u.first_name, u.last_name, u.email, count(*) over ()::int as total
    from reservations r
    join calendars c on c.id = r.calendar_id
    left join users u on u.id = r.user_id
    where ${liveBookings(p)} and r.attendance = 'no_show'
    order by r.slot desc, c.name
    limit ${limit}`);
  return result.rows;
}

export async function topCustomers(db: Db, p: Period, limit: number) {
  const result = await db.execute<{
    user: number;
    first_name: string;
    last_name: string;
    email: string;
    bookings: number;
    spent_cents: number;
  }>(sql`
    select t.user_id as user, u.first_name, u.last_name, u.email, t.bookings, t.spent_cents
    from (
      select r.user_id, count(*)::int as bookings, sum(r.amount_cents)::int as spent_cents
      from reservations r
      where ${liveBookings(p)} and r.paid and r.user_id is not null
      group by r.user_id
      order by spent_cents desc, bookings desc, r.user_id
      limit ${limit}
    ) t
    join users u on u.id = t.user_id
    order by t.spent_cents desc, t.bookings desc, t.user_id`);
  return result.rows;
}
