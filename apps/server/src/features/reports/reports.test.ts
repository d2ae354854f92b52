import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Report } from '@paddock/contract/reports';
import { charges } from '../../db/schema/payments';
import { clubMemberships } from '../../db/schema/club';
import { reservations } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bookAndPay } from '../../test/requests';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let other: Awaited<ReturnType<typeof createVenue>>;
let owner: CreatedUser;
let alice: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(3, zone);
const weekday = DateTime.fromISO(day).weekday;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    seats: 3,
    costCents: 4000,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
  });
  other = await createVenue(t, { seats: 1, costCents: 9900 });
  owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
  alice = await createUser(t, { firstName: 'Alice', lastName: 'Racer' });
  await saveTestCard(t, alice);
});
afterAll(() => t.close());

const get = (query: Record<string, string | number>, user: CreatedUser | null = owner) =>
  t.app.inject({
    url: `/api/reports?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    headers: user ? bearer(user.token) : {},
  });

const book = (user: CreatedUser, items: { calendar: number; slot: string }[]) =>
  bookAndPay(t, user, items);

describe('GET /api/reports', () => {
  it('shows a paid booking in utilisation, revenue (fees apart) and top customers', async () => {
    await book(alice, [
      { calendar: venue.seats[0].id, slot: `${day}T18:00` },
      { calendar: venue.seats[0].id, slot: `${day}T18:30` },
    ]);
    // Elsewhere: not in this location's report.
    await book(alice, [{ calendar: other.seats[0].id, slot: `${day}T18:00` }]);
    // A voucher sale and a club charge (venue-wide), and a declined one that does not count.
    const now = DateTime.fromISO(`${day}T12:00`, { zone }).toJSDate();
    await t.db.insert(charges).values([
      {
        amountCents: 5000,
        kind: 'voucher',
        idempotencyKey: 'r-v',
        chargeRef: 'ch_v',
        createdAt: now,
      },
      { amountCents: 3600, kind: 'club', idempotencyKey: 'r-c', chargeRef: 'ch_c', createdAt: now },
      { amountCents: 999, kind: 'club', idempotencyKey: 'r-x', errors: 'Declined', createdAt: now },
    ]);

    const res = await get({ location: venue.location.id, from: day, to: day });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as Report;
    expect(report.location).toEqual({
      id: venue.location.id,
      name: venue.location.name,
      timezone: zone,
    });
    const seat = report.utilisation.seats.find((s) => s.id === venue.seats[0].id)!;
    expect(seat.booked[(weekday - 1) * 24 + 18]).toBe(2);
    expect(seat.booked.reduce((a, b) => a + b)).toBe(2);
    expect(report.utilisation.capacity[(weekday - 1) * 24 + 18]).toBe(2);
    expect(report.utilisation.seats).toHaveLength(3);
    expect(report.revenue_by_day).toEqual([
      {
        date: day,
        bookings_cents: 8000,
        fees_cents: 300,
        club_cents: 3600,
        vouchers_cents: 5000,
        refunds_cents: 0,
        total_cents: 16900,
      },
    ]);
    expect(report.revenue_by_week).toHaveLength(1);
    expect(report.revenue_by_week[0].date).toBe(DateTime.fromISO(day).startOf('week').toISODate());
    expect(report.revenue_total.total_cents).toBe(16900);
    expect(report.top_customers).toEqual([
      { user: alice.id, name: 'Alice Racer', email: alice.email, bookings: 2, spent_cents: 8300 },
    ]);
  });

  it("adds up takings past 2^31 cents (a chain's year) without an error", async () => {
    const later = DateTime.fromISO(day).plus({ days: 20 });
    const at = later.set({ hour: 12 }).setZone(zone, { keepLocalTime: true }).toJSDate();
    await t.db.insert(charges).values(
      [1, 2].map((n) => ({
        amountCents: 1_500_000_000,
        kind: 'desk',
        method: 'cash' as const,
        idempotencyKey: `r-big-${n}`,
        createdAt: at,
      })),
    );
    const res = await get({
      location: venue.location.id,
      from: later.toISODate()!,
      to: later.toISODate()!,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Report).takings_by_method.cash_cents).toBe(3_000_000_000);
  });

  it('sums a period in Australia/Adelaide exactly: its midnights fall on whole quarter-hours', async () => {
    // +10:30 until the first Sunday of April 2027 at 03:00, +09:30 after (decision 0107: the
    // rollup's UTC quarter-hours split every real zone's days exactly, Nepal's +05:45 too).
    const adelaide = 'Australia/Adelaide';
    const place = await createVenue(t, { seats: 1, timezone: adelaide });
    const [from, to] = ['2027-04-03', '2027-04-05'];
    for (const zoneName of [adelaide, 'Asia/Kathmandu'])
      for (const date of [from, '2027-04-04', to, '2027-04-06']) {
        const midnight = DateTime.fromISO(date, { zone: zoneName });
        expect(midnight.toSeconds() % 900, `${zoneName} ${midnight.toISO()}`).toBe(0);
      }
    const local = (iso: string) => DateTime.fromISO(iso, { zone: adelaide }).toJSDate();
    const rows: {
      at: string;
      kind: string;
      cents: number;
      ref?: string;
      method?: 'cash' | 'terminal';
      errors?: string;
    }[] = [
      { at: '2027-04-02T23:59:59.999', kind: 'club', cents: 1, ref: 'ch_a1' }, // the day before
      { at: '2027-04-03T00:00', kind: 'club', cents: 10, ref: 'ch_a2' },
      { at: '2027-04-03T00:14:59', kind: 'voucher', cents: 20, ref: 'ch_a3' },
      { at: '2027-04-03T23:59:59', kind: 'club', cents: 40, ref: 'ch_a4' },
      { at: '2027-04-04T02:30', kind: 'club', cents: 80, ref: 'ch_a5' }, // first 02:30 (+10:30)
      { at: '2027-04-04T02:45', kind: 'desk', cents: 160, method: 'cash' },
      { at: '2027-04-04T12:00', kind: 'refund', cents: -320, ref: 'ch_a6' },
      { at: '2027-04-04T12:00', kind: 'club', cents: 640, errors: 'Declined' },
      { at: '2027-04-05T23:59:59', kind: 'voucher', cents: 1280, ref: 'ch_a7' },
      { at: '2027-04-05T23:45', kind: 'desk', cents: 2560, method: 'terminal' },
      { at: '2027-04-06T00:00', kind: 'club', cents: 5120, ref: 'ch_a8' }, // the day after
    ];
    await t.db.insert(charges).values(
      rows.map((r, n) => ({
        amountCents: r.cents,
        kind: r.kind,
        chargeRef: r.ref ?? null,
        method: r.method ?? null,
        errors: r.errors ?? '',
        idempotencyKey: `adelaide-${n}`,
        createdAt: local(r.at),
      })),
    );
    const res = await get({ location: place.location.id, from, to });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as Report;

    // The same figures straight from the charges, by the zone's own days.
    const start = local(`${from}T00:00`);
    const end = DateTime.fromISO(to, { zone: adelaide }).plus({ days: 1 }).toJSDate();
    const { rows: direct } = await t.deps.database.pool.query<{
      day: string;
      club: string;
      vouchers: string;
      cash: string;
      terminal: string;
      card: string;
    }>(
      `select to_char(created_at at time zone $3, 'YYYY-MM-DD') as day,
              sum(amount_cents) filter (where kind = 'club' and errors = '' and charge_ref is not null) as club,
              sum(amount_cents) filter (where kind = 'voucher' and errors = '' and charge_ref is not null) as vouchers,
              sum(amount_cents) filter (where method = 'cash' and errors = '') as cash,
              sum(amount_cents) filter (where method = 'terminal' and errors = '') as terminal,
              sum(amount_cents) filter (where method is null and errors = '' and charge_ref is not null) as card
       from charges where created_at >= $1 and created_at < $2 group by 1 order by 1`,
      [start, end, adelaide],
    );
    expect(direct.map((d) => d.day)).toEqual(['2027-04-03', '2027-04-04', '2027-04-05']);
    const sum = (key: keyof (typeof direct)[number]) =>
      direct.reduce((total, d) => total + Number(d[key] ?? 0), 0);
    for (const d of direct) {
      const row = report.revenue_by_day.find((r) => r.date === d.day)!;
      expect(row.club_cents, d.day).toBe(Number(d.club ?? 0));
      expect(row.vouchers_cents, d.day).toBe(Number(d.vouchers ?? 0));
    }
    expect(report.revenue_by_day.map((r) => r.club_cents)).toEqual([50, 80, 0]);
    expect(report.revenue_by_day.map((r) => r.vouchers_cents)).toEqual([20, 0, 1280]);
    expect(report.takings_by_method).toMatchObject({
      card_cents: sum('card'),
      cash_cents: sum('cash'),
      terminal_cents: sum('terminal'),
    });
    expect(report.takings_by_method.card_cents).toBe(10 + 20 + 40 + 80 - 320 + 1280);
  });

  it('counts no-shows and club members joined, cancelled and in good standing', async () => {
    const bob = await createUser(t, { firstName: 'Bob', lastName: 'Late' });
    const when = DateTime.fromISO(`${day}T10:00`, { zone });
    await t.db.insert(reservations).values({
      calendarId: venue.seats[2].id,
      slot: `${day}T10:00`,
      time: when.toJSDate(),
      userId: bob.id,
      paid: true,
      amountCents: 4000,
      attendance: 'no_show',
    });
    const base = {
      creditsPerMonth: 40,
      fullPriceCents: 400,
      priceCents: 360,
      discountPercent: 10,
      cycleDay: 1,
      nextChargeOn: day,
    };
    await t.db.insert(clubMemberships).values([
      { ...base, userId: bob.id, status: 'active', startedAt: when.toJSDate() },
      {
        ...base,
        userId: alice.id,
        status: 'cancelled',
        startedAt: when.minus({ years: 1 }).toJSDate(),
        cancelledAt: when.toJSDate(),
      },
    ]);
    const report = (
      await get({ location: venue.location.id, from: day, to: day })
    ).json() as Report;
    expect(report.no_shows).toEqual({
      count: 1,
      results: [
        {
          reservation: expect.any(Number),
          slot: `${day}T10:00`,
          seat: venue.seats[2].name,
          user: bob.id,
          name: 'Bob Late',
          email: bob.email,
        },
      ],
    });
    expect(report.club).toEqual({ joined: 1, cancelled: 1, in_good_standing: 1 });
    // The day before sees none of it, with a zero row for its one day.
    const before = DateTime.fromISO(day).minus({ days: 1 }).toISODate()!;
    const empty = (
      await get({ location: venue.location.id, from: before, to: before })
    ).json() as Report;
    expect(empty.no_shows.count).toBe(0);
    expect(empty.revenue_by_day).toEqual([
      {
        date: before,
        bookings_cents: 0,
        fees_cents: 0,
        club_cents: 0,
        vouchers_cents: 0,
        refunds_cents: 0,
        total_cents: 0,
      },
    ]);
  });

  it('refuses a bad period or location, naming the field, and an unknown location', async () => {
    const bad = async (query: Record<string, string | number>, field: string) => {
      const res = await get(query);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json())).toContain(field);
    };
    await bad({ location: venue.location.id, from: '2026-02-30', to: '2026-03-01' }, 'from');
    await bad({ location: venue.location.id, from: '2026-03-02', to: '2026-03-01' }, 'to');
    await bad({ location: venue.location.id, from: '2025-01-01', to: '2026-03-01' }, 'to');
    await bad({ location: 'x', from: '2026-03-01', to: '2026-03-01' }, 'location');
    expect((await get({ location: 999999, from: day, to: day })).statusCode).toBe(404);
  });

  it('is for staff holding reports.view_report', async () => {
    const query = { location: venue.location.id, from: day, to: day };
    expect((await get(query, null)).statusCode).toBe(401);
    expect((await get(query, alice)).statusCode).toBe(403);
    const staff = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    expect((await get(query, staff)).statusCode).toBe(403);
  });
});
