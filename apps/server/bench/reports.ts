// Reports benchmark for `npm run bench` (issue 16): GET /api/reports over a year of a 30-seat
// location's generated data (BENCH_ONLY=reports runs only this). The budget is 500 ms a call.
import { DateTime } from 'luxon';
import type { Database } from '../src/db/client';

/** Generates a year of one 30-seat location's bookings, checkouts, club and voucher sales. */
export async function seedReportYear(opts: { database: Database; typeId: number }) {
  const q = (text: string, params: unknown[] = []) => opts.database.pool.query(text, params);
  const openAllDay = JSON.stringify(
    Object.fromEntries(
      ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '10:00', close: '22:00' }]]),
    ),
  );
  const location = (
    await q(
      `insert into locations (name, timezone, opening_hours, booking_fee_cents)
       values ('Bench Reports Hall', 'UTC', $1, 150) returning id`,
      [openAllDay],
    )
  ).rows[0].id as number;
  const seats = (
    await q(
      `insert into calendars (name, type_id, location_id, cost_cents, sort_order)
       select 'Rig ' || g, $1, $2, 2500, g from generate_series(1, 30) g returning id`,
      [opts.typeId, location],
    )
  ).rows.map((r) => r.id as number);
  const users = (
    await q(
      `insert into users (username, email, password_hash, first_name, last_name)
       select 'report-' || g || '@bench.local', 'report-' || g || '@bench.local', 'x', 'Racer', 'No ' || g
       from generate_series(1, 2000) g returning id`,
    )
  ).rows.map((r) => r.id as number);
  const to = DateTime.utc().startOf('day').minus({ days: 1 });
  const from = to.minus({ days: 364 });

  const started = performance.now();
  // Four half-hours in five taken from 10:00 to 22:00 every day; a few cancelled, some no-shows.
  const booked = await q(
    `insert into reservations (calendar_id, slot, time, user_id, paid, amount_cents, cancelled_at, attendance)
     select s, to_char(t, 'YYYY-MM-DD"T"HH24:MI'), t, ($2::int[])[1 + (s * 7 + n) % 2000],
            (s + n) % 9 <> 0, 2650,
            case when (s + n) % 41 = 0 then t - interval '1 day' end,
            case when (s + n) % 53 = 0 then 'no_show' end
     from unnest($1::int[]) s,
          generate_series(0, 365 * 48 - 1) n,
          lateral (select ($3::date + make_interval(mins => n * 30))::timestamptz as t) x
     where extract(hour from t) between 10 and 21 and (s * 31 + n) % 5 <> 0`,
    [seats, users, from.toISODate()],
  );
  // One checkout per paid booking in three, with its booking fee.
  await q(
    `insert into checkouts (user_id, status, location_id, items, amounts, quote, created_at, processed_at)
     select r.user_id, 'paid', $1,
            jsonb_build_array(jsonb_build_object('calendarId', r.calendar_id, 'slot', r.slot,
              'time', r.time, 'costCents', 2500, 'bookingFeeCents', 150, 'amountCents', 2650)),
            '{"subtotalCents":2500,"discountCents":0,"preTaxCents":2650,"salesTaxCents":0,"totalCents":2650,"creditsUsing":0,"creditsValueCents":0}'::jsonb,
            '{}'::jsonb, r.time - interval '2 days', r.time - interval '2 days'
     from reservations r
     where r.calendar_id = any($2::int[]) and r.paid and r.id % 3 = 0`,
    [location, seats],
  );
  await q(
    `update reservations r set checkout_id = k.id, booking_fee_cents = 150
     from checkouts k
     where k.location_id = $1 and r.calendar_id = (k.items->0->>'calendarId')::int
       and r.slot = k.items->0->>'slot' and r.cancelled_at is null`,
    [location],
  );
  // A year of club renewals (300 members) and voucher sales.
  await q(
    `insert into charges (user_id, amount_cents, kind, idempotency_key, charge_ref, created_at)
     select u, 3600, 'club', 'bench-club-' || u || '-' || m, 'ch_bench', $2::date + make_interval(days => m * 30)
     from unnest(($1::int[])[1:300]) u, generate_series(0, 11) m
     union all
     select u, 5000, 'voucher', 'bench-voucher-' || u, 'ch_bench', $2::date + make_interval(days => u % 365)
     from unnest(($1::int[])[1:1000]) u`,
    [users, from.toISODate()],
  );
  await q(
    `insert into club_memberships (user_id, status, credits_per_month, full_price_cents, price_cents,
       discount_percent, cycle_day, started_at, next_charge_on, cancelled_at)
     select u, case when i % 4 = 0 then 'cancelled' else 'active' end, 40, 4000, 3600, 10, 1,
            $2::date + make_interval(days => (i % 365)::int), $2::date,
            case when i % 4 = 0 then $2::date + make_interval(days => (i % 365)::int + 30) end
     from unnest(($1::int[])[1:400]) with ordinality as x(u, i)`,
    [users, from.toISODate()],
  );
  // A venue's year of bookings is long since vacuumed by autovacuum (visibility map set, so
  // index-only scans stay index-only); the freshly generated one is vacuumed here.
  await q(
    'vacuum analyze reservations, report_seat_days, checkouts, charges, club_memberships, calendars, users',
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    location,
    from: from.toISODate()!,
    to: to.toISODate()!,
    bookings: booked.rowCount ?? 0,
    seconds,
  };
}

export async function reportsBenchmark(opts: {
  database: Database;
  appBase: string;
  staffToken: string;
  typeId: number;
}) {
  const { location, from, to, bookings, seconds } = await seedReportYear(opts);
  const seeded = seconds.toFixed(0);

  const url = `${opts.appBase}/api/reports?location=${location}&from=${from}&to=${to}`;
  const headers = { authorization: `Bearer ${opts.staffToken}` };
  const first = await fetch(url, { headers });
  if (first.status !== 200)
    throw new Error(`reports answered ${first.status}: ${await first.text()}`);
  const body = (await first.json()) as { revenue_total: { total_cents: number } };
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)];
  const max = times[times.length - 1];
  return [
    `reports, a year of a 30-seat location (${bookings} bookings, generated in ${seeded} s, ` +
      `revenue $${(body.revenue_total.total_cents / 100).toFixed(0)}): ` +
      `p50 ${p50.toFixed(0)} ms, max ${max.toFixed(0)} ms over 20 calls one at a time ` +
      `(budget 500 ms: ${max < 500 ? 'within' : 'OVER'})`,
  ];
}
