import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createVenue } from '../../test/booking-factories';

// A checkout's bookings are found by index (decision 0069): the finishing statement, a refund
// and the receipt read them by checkout, and a scan of every booking made each checkout slower
// with each booking the venue ever took (122 ms a statement at 200 000 bookings).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A venue's history: past paid bookings, none of them a checkout's, as the desk makes them.
  const venue = await createVenue(t, { seats: 1, costCents: 2500, timezone: 'UTC' });
  await t.db.execute(sql`
    insert into reservations (calendar_id, slot, time, paid, amount_cents)
    select ${venue.seats[0].id}::int, to_char(s, 'YYYY-MM-DD"T"HH24:MI'), s, true, 2500
    from generate_series(timestamptz '2025-01-01', timestamptz '2025-01-01' + interval '4999 hours',
      interval '1 hour') s`);
  await t.db.execute(sql`analyze reservations`);
});
afterAll(() => t.close());

/** The plan PostgreSQL picks for `statement`. */
async function planOf(statement: ReturnType<typeof sql>) {
  const result = await t.db.execute<{ 'QUERY PLAN': string }>(sql`explain ${statement}`);
  return result.rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe("a checkout's bookings", () => {
  it('are marked paid through the index, not by reading every booking', async () => {
    const plan = await planOf(
      sql`update reservations set paid = true where checkout_id = ${7}::int
          and cancelled_at is null and not paid`,
    );
    expect(plan).toContain('reservations_checkout');
    expect(plan).not.toMatch(/Seq Scan on reservations/);
  });

  it('are read through the index', async () => {
    const plan = await planOf(sql`select id from reservations where checkout_id = ${7}::int`);
    expect(plan).toContain('reservations_checkout');
    expect(plan).not.toMatch(/Seq Scan on reservations/);
  });
});
