import type pg from 'pg';
import { PERMISSIONS } from '@paddock/contract/accounts';
import { createIndexes, dropSecondaryIndexes } from '../db/bulk-load-indexes';
import {
  auditTotalsBackfill,
  reportChargeQuartersBackfill,
  reportSeatDaysBackfill,
} from '../db/migration-backfills';
import { hashPassword } from '../lib/passwords';
import { CARS, GROUPS, TRACKS } from './demo-laps';
import { CHAIN_PLACES, FIRST_NAMES, LAST_NAMES, fullSeats } from './chain-places';

/**
 * `npm run seed:chain` (issue 33, decision 0092): a chain of fifty venues five years in, written
 * by INSERT … SELECT inside PostgreSQL (nothing crosses the wire but the statements). Every
 * choice comes from `hashint8`/`hashint4` of row numbers, so a scale and a day give the same
 * chain each time. The bulk tables are written with `session_replication_role = replica` (no
 * per-row triggers, no foreign-key checks: the rows are built consistent) and what the triggers
 * would have kept (report_seat_days, report_charge_quarters) is rebuilt once at the end with
 * each migration's own query.
 */

export const CHAIN_SUPERUSER = {
  email: 'chain-admin@paddock.local',
  password: 'paddock-chain-admin',
};
export const CHAIN_MANAGER_PASSWORD = 'paddock-chain-manager';

/** Ids the chain is built with, so later steps (and the bench) can name rows without asking. */
export const FIRST_CUSTOMER_ID = 1001;

export type ChainPlan = {
  scale: number;
  /** The day the chain's history runs up to (its "today"), YYYY-MM-DD. */
  today: string;
  seatsPerPlace: number[];
  customers: number;
  laps: number;
  vouchers: number;
  raceSessions: number;
  /** Years of bookings before `today` (5; the plan tests take fewer). */
  years: number;
};

export function chainPlan(
  scale: number,
  today: string,
  overrides: Partial<Omit<ChainPlan, 'scale' | 'today'>> = {},
): ChainPlan {
  // Customers come in whole rows of fifty (one per location), so customer k of location l
  // is FIRST_CUSTOMER_ID + l + 50k.
  const customers = Math.max(50 * 20, Math.round((200_000 * scale) / 50) * 50);
  return {
    scale,
    today,
    seatsPerPlace: CHAIN_PLACES.map((_, i) => Math.max(1, Math.round(fullSeats(i) * scale))),
    customers,
    laps: Math.max(10_000, Math.round(10_000_000 * scale)),
    vouchers: Math.max(100, Math.round(20_000 * scale)),
    raceSessions: Math.max(50, Math.round(5_000 * scale)),
    years: 5,
    ...overrides,
  };
}

export type ChainCounts = Record<string, number>;

/** Fails unless the database holds no venue yet: the chain is written with fixed ids. */
export async function assertEmpty(pool: pg.Pool) {
  const { rows } = await pool.query<{ n: string }>(
    `select (select count(*) from users) + (select count(*) from locations)
          + (select count(*) from reservations) + (select count(*) from laps) as n`,
  );
  if (Number(rows[0].n) > 0)
    throw new ChainRefused(
      'seed:chain fills an empty database only: this one already has users, locations, bookings ' +
        'or laps. Point DATABASE_URL at a new database (or DATA_DIR at a new directory).',
    );
}

export class ChainRefused extends Error {}

export async function seedChain(
  pool: pg.Pool,
  plan: ChainPlan,
  log: (line: string) => void = () => {},
): Promise<ChainCounts> {
  await assertEmpty(pool);
  const [adminHash, managerHash, customerHash] = await Promise.all([
    hashPassword(CHAIN_SUPERUSER.password),
    hashPassword(CHAIN_MANAGER_PASSWORD),
    // Customers log in by login link or a reset: one shared hash of a password nobody knows.
    hashPassword(`chain-customer-${plan.today}-${Math.random()}`),
  ]);
  const client = await pool.connect();
  const q = (text: string, params: unknown[] = []) => client.query(text, params);
  const step = async (name: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    log(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  let dropped: string[] = [];
  try {
    await step('locations, seats, catalogue, staff', async () => {
      await q('begin');
      await insertVenue(q, plan, adminHash, managerHash);
      await q('commit');
    });
    // From here on rows are written consistent by construction: no triggers, no FK checks, and
    // the bulk tables' secondary indexes built once at the end rather than kept row by row.
    await q(`set session_replication_role = replica`);
    dropped = await dropSecondaryIndexes(client, BULK_TABLES);
    await step(`${plan.customers} customers`, () => insertCustomers(q, plan, customerHash));
    await step('bookings (visits)', () => insertVisits(q, plan, log));
    await step('reservations, charges, refunds, audit', () => insertBookings(q, plan));
    // The club's charges take the next ids after the bookings' own.
    await setSequences(q);
    await step('club memberships and renewals', () => insertClub(q, plan));
    await step('vouchers', () => insertVouchers(q, plan));
    await step(`${plan.laps} laps and personal bests`, () => insertLaps(q, plan, log));
    await step('boards, race results, parties', () => insertRacing(q, plan));
    await q(`set session_replication_role = origin`);
    await step(`${dropped.length} secondary indexes`, async () => {
      await createIndexes(client, dropped);
      dropped = [];
    });
    await step('report seat days', () => rebuildReportSeatDays(q));
    await step('report charge quarters', () => rebuildReportChargeQuarters(q));
    await step('audit total', async () => {
      await q(`delete from audit_totals`);
      await q(auditTotalsBackfill());
    });
    await step('sequences and statistics', async () => {
      await setSequences(q);
      await q('drop table if exists seed_visits');
      await q('vacuum analyze');
    });
    const counts: ChainCounts = {};
    for (const table of [
      'locations',
      'calendars',
      'users',
      'reservations',
      'charges',
      'refunds',
      'club_memberships',
      'credit_entries',
      'vouchers',
      'laps',
      'personal_bests',
      'race_results',
      'audit_events',
      'report_seat_days',
      'report_charge_quarters',
    ])
      counts[table] = Number((await q(`select count(*) as n from ${table}`)).rows[0].n as string);
    return counts;
  } finally {
    await q(`set session_replication_role = origin`).catch(() => {});
    // A seed that failed half-way still leaves every index the migrations made.
    await createIndexes(client, dropped).catch(() => {});
    client.release();
  }
}

type Q = (text: string, params?: unknown[]) => Promise<pg.QueryResult>;

const WEEKDAYS = { open: '12:00', close: '23:00' };
const WEEKENDS = { open: '10:00', close: '23:00' };
const CHAIN_HOURS = {
  '1': [WEEKDAYS],
  '2': [WEEKDAYS],
  '3': [WEEKDAYS],
  '4': [WEEKDAYS],
  '5': [WEEKDAYS],
  '6': [WEEKENDS],
  '7': [WEEKENDS],
};

async function insertVenue(q: Q, plan: ChainPlan, adminHash: string, managerHash: string) {
  await q(
    `insert into locations (id, name, timezone, address, currency, sales_tax_rate_percent,
       booking_fee_cents, opening_hours)
     select i, 'Paddock ' || (p->>'city'), p->>'timezone', (10 * i) || ' Circuit Road, ' || (p->>'city'),
            p->>'currency', (p->>'taxPercent')::numeric, 0, $2::jsonb
     from jsonb_array_elements($1::jsonb) with ordinality as x(p, i)`,
    [JSON.stringify(CHAIN_PLACES), JSON.stringify(CHAIN_HOURS)],
  );
  await q(
    `insert into calendar_types (id, name, description, is_vr) values
       (1, 'Pro Cockpit', 'Direct-drive wheel, load-cell pedals, triple screens.', false),
       (2, 'VR Rig', 'Pro Cockpit with a VR headset.', true)`,
  );
  // The last fifth of each location's seats are VR rigs, a third dearer. The calendars trigger
  // gives each seat its race event (migration 0015), so seats go in with triggers on.
  await q(
    `insert into calendars (name, type_id, location_id, cost_cents, sort_order)
     select case when s > n - n / 5 then 'VR Rig ' || (s - (n - n / 5)) else 'Cockpit ' || s end,
            case when s > n - n / 5 then 2 else 1 end, l,
            case when s > n - n / 5 then cost * 4 / 3 else cost end, s
     from unnest($1::int[], $2::int[]) with ordinality as x(n, cost, l),
          generate_series(1, n) s
     order by l, s`,
    [plan.seatsPerPlace, CHAIN_PLACES.map((p) => p.costCents)],
  );
  await q(
    `insert into users (id, username, email, password_hash, is_onboarded, is_staff, is_superuser,
       first_name, last_name, location_id, created_at)
     values (1, $1, $1, $2, true, true, true, 'Chain', 'Admin', 1, $3::date - interval '5 years')`,
    [CHAIN_SUPERUSER.email, adminHash, plan.today],
  );
  // One manager per location (ids 2 … 51) with every permission: the desk of the chain.
  await q(
    `insert into users (id, username, email, password_hash, is_onboarded, is_staff, first_name,
       last_name, location_id, created_at)
     select 1 + l, e, e, $1, true, true, 'Manager', p->>'city', l, $2::date - interval '5 years'
     from jsonb_array_elements($3::jsonb) with ordinality as x(p, l),
          lateral (select 'manager-' || l || '@chain.paddock.local' as e) m`,
    [managerHash, plan.today, JSON.stringify(CHAIN_PLACES)],
  );
  await q(
    `insert into user_permissions (user_id, permission)
     select u, unnest($1::text[]) from generate_series(2, 51) u`,
    [PERMISSIONS],
  );
  await q(
    `insert into tracks (sim, key, layout, name, country, length_m)
           select sim, key, layout, name, country, "lengthM"
           from jsonb_to_recordset($1::jsonb) as t(sim text, key text, layout text, name text,
                country text, "lengthM" int)`,
    [JSON.stringify(TRACKS)],
  );
  await q(`insert into car_groups (name) select unnest($1::text[])`, [GROUPS]);
  await q(
    `insert into cars (sim, key, name, brand, car_class)
     select sim, key, name, brand, "carClass"
     from jsonb_to_recordset($1::jsonb) as c(sim text, key text, name text, brand text, "carClass" text)`,
    [JSON.stringify(CARS)],
  );
  await q(
    `insert into car_group_members (car_id, group_id)
     select c.id, g.id from jsonb_to_recordset($1::jsonb) as x(key text, sim text, groups jsonb)
     join cars c on c.key = x.key and c.sim = x.sim
     join car_groups g on x.groups ? g.name`,
    [JSON.stringify(CARS)],
  );
}

async function insertCustomers(q: Q, plan: ChainPlan, hash: string) {
  // Customer n (0-based) lives near location n % 50; e-mails are unique by n.
  await q(
    `insert into users (id, username, email, password_hash, is_onboarded, first_name, last_name,
       racer_name, flag_code, contact_phone, zip_code, location_id, created_at, last_login)
     select $1 + n, e, e, $2, true, f, l,
            case when n % 3 = 0 then left(f || ' ' || left(l, 1) || '.' || (n % 97), 24) else '' end,
            (array['us','us','us','ca','gb','de','fr','it','es','nl','au','ie'])[1 + abs(h2) % 12],
            '+1 555 ' || lpad((n % 10000000)::text, 7, '0'), lpad((abs(h2) % 99999)::text, 5, '0'),
            1 + n % 50, $4::date - make_interval(days => abs(h1) % 1800),
            $4::date - make_interval(days => abs(h2) % 60)
     from generate_series(0, $3 - 1) n,
          lateral (select hashint4(n) h1, hashint4(n + 7777777) h2) h,
          lateral (select ($5::text[])[1 + abs(h1) % array_length($5::text[], 1)] f,
                          ($6::text[])[1 + abs(h2) % array_length($6::text[], 1)] l) names,
          lateral (select lower(replace(replace(f || '.' || l, ' ', ''), '''', '')) || '.' || n
                          || '@example.com' e) mail`,
    [FIRST_CUSTOMER_ID, hash, plan.customers, plan.today, FIRST_NAMES, LAST_NAMES],
  );
}

/**
 * One visit is one customer on one seat for an hour (two half-hour bookings). Each seat-hour
 * the location is open is taken with the probability of its weekday and hour: weekday
 * afternoons 5 %, weekday evenings 25 %, weekend afternoons 25 %. A tenth of visits go to the
 * location's regulars (1 % of its customers), who end up with hundreds of bookings each.
 */
async function insertVisits(q: Q, plan: ChainPlan, log: (line: string) => void) {
  await q(`drop table if exists seed_visits`);
  await q(`create unlogged table seed_visits (
    id serial primary key, calendar_id int not null, location_id int not null, user_id int not null,
    start_local timestamp not null, at timestamptz not null, amount_cents int not null,
    currency char(3) not null, seat_name text not null, r int not null)`);
  const perPlace = plan.customers / 50;
  const regulars = Math.max(1, Math.floor(perPlace / 100));
  for (let l = 1; l <= 50; l++) {
    await q(
      `insert into seed_visits (calendar_id, location_id, user_id, start_local, at, amount_cents,
         currency, seat_name, r)
       select c.id, c.location_id,
              $2 + ($1 - 1) + 50 * (case when abs(r2) % 10 = 0 then abs(r3) % $4 else abs(r3) % $3 end),
              d + make_interval(hours => h), (d + make_interval(hours => h)) at time zone lo.timezone,
              round(c.cost_cents * (100 + lo.sales_tax_rate_percent) / 100)::int, lo.currency, c.name,
              abs(r2)
       from calendars c join locations lo on lo.id = c.location_id,
            generate_series($5::date - make_interval(years => $6), $5::date + interval '60 days',
                            interval '1 day') d,
            generate_series(10, 22) h,
            lateral (select hashint8(c.id::bigint * 1000000000 + (d::date - date '2000-01-01') * 100 + h) r1) a,
            lateral (select hashint4(r1) r2, hashint4(r1 + 1) r3) b
       where c.location_id = $1
         and (extract(isodow from d) >= 6 or h >= 12)
         and abs(r1) % 1000 < case
               when extract(isodow from d) >= 6 then case when h between 12 and 20 then 250 else 150 end
               when h between 17 and 21 then 250 when h = 22 then 100 else 50 end
       order by c.id, d, h`,
      [l, FIRST_CUSTOMER_ID, perPlace, regulars, plan.today, plan.years],
    );
    if (l % 10 === 0) log(`  visits: ${l} of 50 locations`);
  }
}

/**
 * A visit's fate from its hash: 5 % cancelled (refunded in full when paid), 2 % of past ones
 * no-shows, most past ones checked in; past visits are paid, a fifth of future ones not yet.
 */
const VISIT_FACTS = `
  with v as (
    select v.*, (v.r / 16) % 100 as k, v.at < $1::date::timestamptz as past,
           v.at - make_interval(days => 1 + (v.r / 1600) % 30, mins => (v.r / 7) % 600) as booked_at
    from seed_visits v
  )
  select v.*, k < 5 as cancelled, (past or k % 5 <> 0) as paid,
         case when k < 5 then booked_at + (at - booked_at) / 2 end as cancelled_at,
         case when past and k between 5 and 6 then 'no_show'
              when past and k between 7 and 79 then 'checked_in' end as attendance
  from v`;

async function insertBookings(q: Q, plan: ChainPlan) {
  await q(`create unlogged table seed_facts as ${VISIT_FACTS}`, [plan.today]);
  await q(`alter table seed_facts add primary key (id)`);
  // Reservation ids follow the visits (2v − 1 and 2v), so refunds and audit rows can name them.
  await q(`
    insert into reservations (id, calendar_id, slot, time, user_id, paid, amount_cents,
      created_by_id, charge_id, created_at, updated_at, cancelled_at, cancelled_by_id, attendance)
    select 2 * v.id - 1 + half, v.calendar_id,
           to_char(v.start_local + half * interval '30 minutes', 'YYYY-MM-DD"T"HH24:MI'),
           v.at + half * interval '30 minutes', v.user_id, v.paid and not v.cancelled,
           v.amount_cents, v.user_id, case when v.paid then v.id end, v.booked_at,
           coalesce(v.cancelled_at, v.booked_at), v.cancelled_at,
           case when v.cancelled then v.user_id end, v.attendance
    from seed_facts v cross join (values (0), (1)) h(half)
    order by v.id, half`);
  // One card charge per paid visit (charge id = visit id), as a checkout of two slots makes.
  await q(`
    insert into charges (id, user_id, amount_cents, currency, notes, charge_ref, idempotency_key,
      kind, created_at)
    select id, user_id, 2 * amount_cents, currency,
           seat_name || ', ' || to_char(start_local, 'YYYY-MM-DD HH24:MI') || ' (1 hour)',
           'ch_seed_' || id, 'seed-booking-' || id, 'booking', booked_at
    from seed_facts where paid order by id`);
  // A cancelled paid visit: each of its bookings refunded in full to the card, sent and done.
  await q(`
    insert into refunds (reservation_id, kind, user_id, choice, paid_cents, kept_cents, card_cents,
      tax_cents, fee_cents, credits, credits_cents, voucher_cents, charge_id, card_status,
      attempts, provider_ref, calendar_id, location_id, slot, created_by_id, created_at, updated_at)
    select 2 * v.id - 1 + half, 'cancel', v.user_id, 'policy', v.amount_cents, 0, v.amount_cents,
           v.amount_cents - c.cost_cents, 0, 0, 0, 0, v.id, 'succeeded', 1,
           're_seed_' || (2 * v.id - 1 + half), v.calendar_id, v.location_id,
           to_char(v.start_local + half * interval '30 minutes', 'YYYY-MM-DD"T"HH24:MI'),
           v.user_id, v.cancelled_at, v.cancelled_at
    from seed_facts v join calendars c on c.id = v.calendar_id cross join (values (0), (1)) h(half)
    where v.cancelled and v.paid order by v.id, half`);
  // The trail: cancellations by customer or desk, no-shows and check-ins marked by the desk.
  await q(`
    insert into audit_events (at, actor_id, action, target_type, target_id, subject_user_id,
      before, after)
    select case when v.cancelled then v.cancelled_at else v.at + interval '10 minutes' end,
           case when v.cancelled and v.k % 2 = 0 then v.user_id else 1 + v.location_id end,
           case when v.cancelled then 'reservation.cancel'
                when v.attendance = 'no_show' then 'reservation.no_show'
                else 'planner.attendance' end,
           'reservation', 2 * v.id - 1, v.user_id,
           case when v.cancelled then null else '{"attendance": null}'::jsonb end,
           case when v.cancelled then jsonb_build_object('cancelled', true)
                else jsonb_build_object('attendance', v.attendance) end
    from seed_facts v
    where v.cancelled or v.attendance = 'no_show' or (v.attendance = 'checked_in' and v.k % 10 = 7)
    order by 1`);
  await q(`drop table seed_facts`);
}

/** A twentieth of the customers are club members; each month renewed, its credits spent. */
async function insertClub(q: Q, plan: ChainPlan) {
  await q(
    `insert into club_memberships (id, user_id, status, credits_per_month, full_price_cents,
       price_cents, discount_percent, cycle_day, started_at, next_charge_on, cycles_paid,
       discounts_given_cents, created_at)
     select m, u.id, 'active', 100, 1000, 900, 10, extract(day from s)::int, s,
            (s + make_interval(months => n))::date, n, n * 100, s
     from generate_series(1, $1) m
     join users u on u.id = $2 + (m - 1) * 20,
     lateral (select ($3::date - make_interval(days => 1 + abs(hashint4(m)) % 1700))::timestamptz
                     + interval '12 hours' as s0) s0,
     lateral (select s0 - make_interval(days => greatest(0, extract(day from s0)::int - 28)) as s) s1,
     lateral (select (extract(year from age($3::date, s)) * 12 + extract(month from age($3::date, s)))::int + 1 as n) c`,
    [plan.customers / 20, FIRST_CUSTOMER_ID, plan.today],
  );
  await q(`
    with cycles as (
      select m.id as membership, m.user_id, g as cycle, m.started_at + make_interval(months => g) as at,
             g = m.cycles_paid - 1 as latest, l.currency
      from club_memberships m join users u on u.id = m.user_id join locations l on l.id = u.location_id,
           generate_series(0, m.cycles_paid - 1) g
    ), paid as (
      insert into charges (user_id, amount_cents, currency, notes, charge_ref, idempotency_key, kind,
        created_at)
      select user_id, 900, currency, case when cycle = 0 then 'Club enrolment' else 'Club renewal' end,
             'ch_seed_club_' || membership || '_' || cycle, 'seed-club-' || membership || '-' || cycle,
             'club', at
      from cycles order by at
      returning id, user_id, created_at, idempotency_key
    )
    insert into credit_entries (user_id, delta, reason, membership_id, charge_id, created_at)
    select c.user_id, 100, case when c.cycle = 0 then 'enrolment' else 'renewal' end, c.membership,
           p.id, c.at
    from cycles c join paid p on p.idempotency_key = 'seed-club-' || c.membership || '-' || c.cycle
    union all
    select c.user_id, -100, 'reservation', c.membership, null, c.at + interval '10 days'
    from cycles c where not c.latest`);
  await q(`insert into credit_balances (user_id, balance, updated_at)
           select user_id, 100, now() from club_memberships`);
}

async function insertVouchers(q: Q, plan: ChainPlan) {
  await q(
    `insert into vouchers (id, code, amount_cents, balance_cents, currency, created_by_id, source,
       recipient_email, recipient_name, message, expires_on, created_at)
     select g, 'CHAIN' || lpad(g::text, 8, '0'), a, case when abs(h) % 3 = 0 then a else a / (2 + abs(h) % 3) end,
            l.currency, case when abs(h) % 4 = 0 then 1 + l.id else $2 + g % $3 end,
            case when abs(h) % 4 = 0 then 'staff' else 'purchase' end,
            'gift' || g || '@example.com', 'Gift ' || g, 'Enjoy the track!',
            ($4::date + make_interval(days => abs(h) % 700 - 300))::date,
            $4::date - make_interval(days => abs(h) % 1800)
     from generate_series(1, $1) g, lateral (select hashint4(g + 31) h) x,
          lateral (select 2500 * (2 + abs(h) % 7) a) y, locations l
     where l.id = 1 + g % 50`,
    [plan.vouchers, FIRST_CUSTOMER_ID, plan.customers, plan.today],
  );
  await q(`insert into voucher_redemptions (voucher_id, amount_cents, created_at)
           select id, amount_cents - balance_cents, created_at + interval '20 days'
           from vouchers where balance_cents < amount_cents`);
}

/**
 * Laps over the real catalogue: each track-car pair has its pace (from the track's length and
 * the car's class), each racer their skill, each lap its noise. Written in chunks of a million.
 */
async function insertLaps(q: Q, plan: ChainPlan, log: (line: string) => void) {
  const seats = Number((await q(`select max(id) as n from calendars`)).rows[0].n);
  await q(`create unlogged table seed_combos as
    select row_number() over (order by t.id, c.id)::int as n, t.id as track_id, c.id as car_id, t.sim,
           (t.length_m * 19 + case c.car_class when 'GT3' then 0 when 'GT4' then 9000
              when 'Formula' then -12000 else 15000 end) as pace
    from tracks t join cars c on c.sim = t.sim`);
  const combos = Number((await q(`select count(*) as n from seed_combos`)).rows[0].n);
  const chunk = 1_000_000;
  for (let from = 0; from < plan.laps; from += chunk) {
    const to = Math.min(plan.laps, from + chunk) - 1;
    await q(
      `insert into laps (user_id, calendar_id, track_id, car_id, sim, lap_ms, sectors_ms, recorded_at,
         source_key, valid, invalid_reason, driver_name)
       select u, 1 + abs(h2) % $6, c.track_id, c.car_id, c.sim,
              c.pace + (hashint4(u) & 8191) + (abs(h2) % 4000), '[]'::jsonb,
              $5::date - make_interval(secs => abs(h1) % (86400 * 1826)), 'seed:' || g,
              abs(h2) % 8 <> 0, case when abs(h2) % 8 = 0 then 'cut' else '' end, ''
       from generate_series($1::int, $2::int) g,
            lateral (select hashint4(g) h1, hashint4(g + 1000000007) h2) h,
            lateral (select $3 + abs(h1) % $4 as u) racer, seed_combos c
       where c.n = 1 + abs(hashint4(g + 17)) % $7`,
      [from, to, FIRST_CUSTOMER_ID, plan.customers, plan.today, seats, combos],
    );
    log(`  laps: ${to + 1} of ${plan.laps}`);
  }
  await q(`drop table seed_combos`);
  await q(`insert into personal_bests (user_id, track_id, car_id, lap_id, lap_ms, recorded_at)
    select distinct on (user_id, track_id, car_id) user_id, track_id, car_id, id, lap_ms, recorded_at
    from laps where valid and user_id is not null
    order by user_id, track_id, car_id, lap_ms, recorded_at, id`);
}

/** TIME boards per track (all time and last 30 days), a POINTS season per track, races, parties. */
async function insertRacing(q: Q, plan: ChainPlan) {
  await q(`insert into boards (name, calculation, track_id, group_id, time_frame_days, sort_order)
    select t.name || case when d is null then ' GT3 all time' else ' GT3 last 30 days' end, 'TIME',
           t.id, g.id, d, t.id * 2 + coalesce(d, 0) / 30
    from tracks t cross join (values (null::int), (30)) x(d)
    join car_groups g on g.name = 'GT3'`);
  await q(
    `insert into boards (name, calculation, track_id, since, sort_order, points_rules)
     select t.name || ' season', 'POINTS', t.id, date_trunc('year', $1::date)::date, 100 + t.id,
            '{"table":[25,18,15,12,10,8,6,4,2,1],"fastest_lap_bonus":1,"pole_bonus":1,"drop_worst":0,"team_best_of":1}'::jsonb
     from tracks t`,
    [plan.today],
  );
  await q(
    `insert into race_sessions (id, file_sha, session_key, sim, track_id, kind, server_name,
       imported_at, imported_by_id)
     select s, md5('seed-session-' || s), 'seed:' || s, t.sim, t.id,
            case when s % 3 = 0 then 'QUALIFYING' else 'RACE' end, 'Paddock ' || (1 + s % 50),
            $2::date - make_interval(days => abs(hashint4(s)) % 1826), 1 + 1 + s % 50
     from generate_series(1, $1) s
     join tracks t on t.id = 1 + abs(hashint4(s + 5)) % (select count(*) from tracks)`,
    [plan.raceSessions, plan.today],
  );
  await q(
    `insert into race_results (session_id, position, user_id, driver_name, team_name, car_id,
       best_lap_ms, total_ms, laps, fastest_lap, pole)
     select s.id, p, u.id, u.first_name || ' ' || u.last_name,
            case when u.id % 4 = 0 then 'Team ' || (u.id % 40) else '' end, c.id,
            100000 + p * 150, 1200000 + p * 4000, 10, p = 3, s.kind = 'QUALIFYING' and p = 1
     from race_sessions s cross join generate_series(1, 12) p
     join users u on u.id = $1 + (abs(hashint4(s.id * 100 + p)) % ($2 / 50)) * 50 + s.id % 50
     join lateral (select cars.id from cars
                   join car_group_members m on m.car_id = cars.id
                   join car_groups g on g.id = m.group_id and g.name = 'GT3'
                   where cars.sim = s.sim order by cars.id limit 1) c on true
     -- As imports write them: a session's results together, sessions in turn.
     order by s.id, p`,
    [FIRST_CUSTOMER_ID, plan.customers],
  );
  // A party of up to four seats at every location with four cockpits or more.
  await q(`
    with firsts as (
      select distinct on (location_id) location_id, id from calendars where type_id = 1
      order by location_id, id
    ), hosts as (
      insert into parties (location_id, name, host_calendar_id, host_event_id)
      select f.location_id, 'Friday League', f.id, e.id
      from firsts f join race_events e on e.calendar_id = f.id
      where (select count(*) from calendars c where c.location_id = f.location_id and c.type_id = 1) >= 4
      returning id, location_id, host_calendar_id
    )
    insert into party_members (party_id, calendar_id, is_host)
    select h.id, c.id, c.id = h.host_calendar_id from hosts h
    join lateral (select id from calendars c where c.location_id = h.location_id and c.type_id = 1
                  order by id limit 4) c on true`);
}

/** What the reservations trigger would have kept, from the migration's own backfill (0025). */
async function rebuildReportSeatDays(q: Q) {
  await q(`delete from report_seat_days`);
  await q(reportSeatDaysBackfill());
}

/** What the charges trigger would have kept, from the migration's own backfill (0107). */
async function rebuildReportChargeQuarters(q: Q) {
  await q(`delete from report_charge_quarters`);
  await q(reportChargeQuartersBackfill());
}

/** The tables the chain writes in bulk: their indexes cost more kept per row than built once. */
const BULK_TABLES = [
  'reservations',
  'charges',
  'refunds',
  'audit_events',
  'laps',
  'personal_bests',
];

/** Rows written with their ids leave serial sequences behind: move each past its table's ids. */
async function setSequences(q: Q) {
  const { rows } = await q(`
    select c.relname as table_name, a.attname as column_name,
           pg_get_serial_sequence(quote_ident(c.relname), a.attname) as seq
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    where c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null`);
  for (const r of rows as { table_name: string; column_name: string; seq: string }[])
    await q(
      `select setval($1, coalesce((select max("${r.column_name}") from "${r.table_name}"), 0) + 1, false)`,
      [r.seq],
    );
}
