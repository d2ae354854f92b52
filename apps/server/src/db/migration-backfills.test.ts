import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { createVenue } from '../test/booking-factories';
import { reportChargeQuartersBackfill, reportSeatDaysBackfill } from './migration-backfills';

// The chain seed loads bookings with the triggers off and then runs migration 0025's backfill
// (decision 0104): what it builds must be what the triggers keep, row for row.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const seatDays = async () =>
  (
    await t.deps.database.pool.query(
      `select calendar_id, day::text, hours, paid_cents, fee_cents from report_seat_days
       order by calendar_id, day`,
    )
  ).rows;

it("rebuilds report_seat_days as the triggers kept it, from migration 0025's own statement", async () => {
  const venue = await createVenue(t, { seats: 2, costCents: 4000, bookingFeeCents: 150 });
  const [a, b] = venue.seats.map((s) => s.id);
  await t.deps.database.pool.query(
    `insert into reservations (calendar_id, slot, time, paid, amount_cents, booking_fee_cents,
       cancelled_at, is_blackout)
     values ($1, '2030-05-01T10:00', '2030-05-01T10:00Z', true, 4000, 150, null, false),
            ($1, '2030-05-01T10:30', '2030-05-01T10:30Z', false, 4000, 150, null, false),
            ($1, '2030-05-01T23:30', '2030-05-01T23:30Z', true, 4000, 0, null, false),
            ($2, '2030-05-01T10:00', '2030-05-01T10:00Z', true, 2500, 150, now(), false),
            ($2, '2030-05-02T09:00', '2030-05-02T09:00Z', false, 0, 0, null, true),
            ($2, '2030-05-03T12:00', '2030-05-03T12:00Z', true, 2500, 0, null, false),
            ($2, 'not a slot', '2030-05-03T12:00Z', true, 2500, 0, null, false)`,
    [a, b],
  );
  const kept = await seatDays();
  expect(kept.length).toBeGreaterThan(0);
  expect(reportSeatDaysBackfill()).toMatch(/^-- The bookings already there\.\nwith hourly as/);

  await t.deps.database.pool.query('delete from report_seat_days');
  await t.deps.database.pool.query(reportSeatDaysBackfill());
  expect(await seatDays()).toEqual(kept);
});

it("rebuilds report_charge_quarters as the trigger kept it, from its migration's own statement", async () => {
  const pool = t.deps.database.pool;
  await pool.query(
    `insert into charges (amount_cents, kind, charge_ref, method, errors, idempotency_key, created_at)
     values (2500, 'booking', 'ch_1', null, '', 'bf-1', '2030-05-01T10:00Z'),
            (1500, 'booking', 'ch_2', null, '', 'bf-2', '2030-05-01T10:14Z'),
            (900, 'booking', null, null, 'Declined', 'bf-3', '2030-05-01T10:14Z'),
            (-400, 'refund', 'ch_3', null, '', 'bf-4', '2030-05-01T10:15Z'),
            (3000, 'desk', null, 'cash', '', 'bf-5', '2030-05-02T23:59Z'),
            (2000000000, 'club', 'ch_4', null, '', 'bf-6', '2030-05-02T23:59Z'),
            (2000000000, 'club', 'ch_5', null, '', 'bf-7', '2030-05-02T23:50Z')`,
  );
  const rows = async () =>
    (
      await pool.query(
        `select bucket, kind, method, referenced, succeeded, amount_cents::text as cents, charges
         from report_charge_quarters order by 1, 2, 3, 4, 5`,
      )
    ).rows;
  const kept = await rows();
  expect(kept.length).toBe(5);
  expect(reportChargeQuartersBackfill()).toMatch(
    /^-- The charges already there, in bucket order:[^]*\ninsert into/,
  );

  await pool.query('delete from report_charge_quarters');
  await pool.query(reportChargeQuartersBackfill());
  expect(await rows()).toEqual(kept);
});
