import { DateTime } from 'luxon';
import {
  REPORT_NO_SHOWS_MAX,
  REPORT_TOP_CUSTOMERS,
  type Report,
  type ReportQuery,
  type RevenueRow,
  type TakingsByMethod,
} from '@paddock/contract/reports';
import { PAYMENT_METHODS } from '@paddock/contract/charges';
import type { Db } from '../../db/client';
import { NotFound } from '../../plugins/errors';
import * as repo from './reports.repo';

const HOURS_OF_WEEK = 168;
const hourOfWeek = (isoWeekday: number, hour: number) => (isoWeekday - 1) * 24 + hour;
const fullName = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(' ');

type Split = Omit<RevenueRow, 'date' | 'total_cents'>;
const emptySplit = (): Split => ({
  bookings_cents: 0,
  club_cents: 0,
  vouchers_cents: 0,
  fees_cents: 0,
  refunds_cents: 0,
});
const withTotal = (date: string, s: Split): RevenueRow => ({
  date,
  ...s,
  total_cents: s.bookings_cents + s.club_cents + s.vouchers_cents + s.fees_cents + s.refunds_cents,
});

function splitByMethod(
  rows: { method: string; cents: number }[],
  other: Awaited<ReturnType<typeof repo.paidOtherwise>>,
): TakingsByMethod {
  const split: TakingsByMethod = {
    voucher_cents: other.voucher,
    credits_cents: other.credits,
    fees_cents: other.fees,
    tax_cents: other.tax,
    card_cents: 0,
    cash_cents: 0,
    terminal_cents: 0,
    bank_transfer_cents: 0,
    other_cents: 0,
    total_cents: 0,
  };
  for (const row of rows) {
    const key =
      `${(PAYMENT_METHODS as readonly string[]).includes(row.method) ? row.method : 'other'}_cents` as keyof TakingsByMethod;
    split[key as 'card_cents'] += row.cents;
    split.total_cents += row.cents;
  }
  return split;
}

/**
 * How the venue did at one location over a period (docs/decisions/0038-back-office.md):
 * seat utilisation per hour of the week, revenue per day and week, club members, no-shows and
 * top customers. Days are the location's; bookings count by the day of their slot, club and
 * voucher sales (venue-wide) by the day they were charged.
 */
export async function buildReport(db: Db, query: ReportQuery): Promise<Report> {
  const location = await repo.findLocation(db, query.location);
  if (!location) throw new NotFound('No such location.');
  const zone = location.timezone;
  const first = DateTime.fromISO(query.from, { zone });
  const afterLast = DateTime.fromISO(query.to, { zone }).plus({ days: 1 });
  const period: repo.Period = {
    locationId: location.id,
    timezone: zone,
    fromSlot: query.from,
    toSlotExclusive: afterLast.toISODate()!,
    start: first.toJSDate(),
    end: afterLast.toJSDate(),
  };

  const [seats, booked, takings, club, vouchers, members, noShows, top, refunds, byMethod, other] =
    await Promise.all([
      repo.seatsOf(db, location.id),
      repo.bookedHours(db, period),
      repo.bookingTakings(db, period),
      repo.chargesByDay(db, period, 'club'),
      repo.chargesByDay(db, period, 'voucher'),
      repo.clubCounts(db, period),
      repo.noShows(db, period, REPORT_NO_SHOWS_MAX),
      repo.topCustomers(db, period, REPORT_TOP_CUSTOMERS),
      repo.providerRefundsByDay(db, period),
      repo.takingsByMethod(db, period),
      repo.paidOtherwise(db, period),
    ]);

  // Utilisation: each hour of the week holds two half-hours per day it occurs in the period.
  const capacity = new Array<number>(HOURS_OF_WEEK).fill(0);
  const days: string[] = [];
  for (let d = first; d < afterLast; d = d.plus({ days: 1 })) {
    days.push(d.toISODate()!);
    for (let h = 0; h < 24; h += 1) capacity[hourOfWeek(d.weekday, h)] += 2;
  }
  const bySeat = new Map(
    seats.map((s) => [s.id, new Array<number>(HOURS_OF_WEEK).fill(0)] as const),
  );
  for (const row of booked) {
    const cells = bySeat.get(row.seat);
    if (cells) row.hours.forEach((n, hour) => (cells[hourOfWeek(row.dow, hour)] += n));
  }

  // Revenue per day: booking takings less their fees, fees, club and voucher sales, less the
  // refunds made at the provider (a cancellation's refund already took its booking out).
  const daily = new Map(days.map((d) => [d, emptySplit()]));
  const add = (rows: { day: string; cents: number }[], key: keyof Split, sign = 1) => {
    for (const row of rows) {
      const split = daily.get(row.day);
      if (split) split[key] += sign * row.cents;
    }
  };
  const fees = takings.map((row) => ({ day: row.day, cents: row.fees }));
  add(takings, 'bookings_cents');
  add(fees, 'bookings_cents', -1);
  add(fees, 'fees_cents');
  add(club, 'club_cents');
  add(vouchers, 'vouchers_cents');
  add(refunds, 'refunds_cents');

  const weekly = new Map<string, Split>();
  const total = emptySplit();
  for (const [day, split] of daily) {
    const week = DateTime.fromISO(day).startOf('week').toISODate()!;
    const sum = weekly.get(week) ?? emptySplit();
    for (const key of Object.keys(split) as (keyof Split)[]) {
      sum[key] += split[key];
      total[key] += split[key];
    }
    weekly.set(week, sum);
  }

  return {
    location,
    from: query.from,
    to: query.to,
    utilisation: {
      capacity,
      seats: seats.map((s) => ({ id: s.id, name: s.name, booked: bySeat.get(s.id)! })),
    },
    revenue_by_day: [...daily].map(([date, split]) => withTotal(date, split)),
    revenue_by_week: [...weekly].map(([date, split]) => withTotal(date, split)),
    revenue_total: (({ date: _date, ...rest }) => rest)(withTotal('', total)),
    takings_by_method: splitByMethod(byMethod, other),
    club: {
      joined: members.joined,
      cancelled: members.cancelled,
      in_good_standing: members.good,
    },
    no_shows: {
      count: noShows[0]?.total ?? 0,
      results: noShows.map((r) => ({
        reservation: r.reservation,
        slot: r.slot,
        seat: r.seat,
        user: r.user,
        name: fullName(r.first_name, r.last_name),
        email: r.email ?? '',
      })),
    },
    top_customers: top.map((r) => ({
      user: r.user,
      name: fullName(r.first_name, r.last_name),
      email: r.email,
      bookings: r.bookings,
      spent_cents: r.spent_cents,
    })),
  };
}
