import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// The booking write path's PostgreSQL round trips (issue 14, decision 0046): exact counts, so a
// change that adds a query to a booking or a checkout shows here. The change feed's barrier
// (`select 1` on the LISTEN connection, shared by concurrent requests) is counted apart. A write
// is announced after its commit in a statement of its own (decision 0053): that statement writes
// nothing, so it never waits for a WAL flush, and is counted with the rest (it is the feed's
// barrier query when the app's feed is up, decision 0063).

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let customer: CreatedUser;
const zone = 'Europe/London';
const day = futureDate(4, zone);

const query = pg.Client.prototype.query;
let log: string[] | null = null;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3, costCents: 2500, timezone: zone });
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
  customer = await createUser(t);
  await saveTestCard(t, customer);
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
    log?.push(text ?? '(prepared)');
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterAll(async () => {
  pg.Client.prototype.query = query;
  await t.close();
});

/** The queries one call makes; the second of two identical warm-ups, so caches are filled. */
async function roundTrips(call: () => Promise<{ statusCode: number }>, expected: number) {
  log = [];
  const res = await call();
  const queries = log;
  log = null;
  expect(res.statusCode).toBe(expected);
  return {
    database: queries.filter((q) => q !== 'select 1'),
    barrier: queries.filter((q) => q === 'select 1').length,
  };
}

const post = (user: CreatedUser, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

describe('round trips of the booking write path', () => {
  it('a staff booking for a customer and a customer booking are one statement each', async () => {
    // Warm the session and seat caches.
    await post(staff, '/api/reservations', {
      calendar: venue.seats[0].id,
      slot: `${day}T10:00`,
      user: customer.id,
    });
    await post(customer, '/api/reservations', {
      calendar: venue.seats[1].id,
      slot: `${day}T10:00`,
    });
    // Three bookings of each kind, the fewest round trips counted: a session read again because
    // an announcement arrived while an earlier request cached it (session-cache.ts) is a timing
    // accident; a query the booking itself adds shows in every one.
    const staffCounts: number[] = [];
    const customerCounts: number[] = [];
    // A customer of its own each time, so the unpaid-booking limit is never what answers.
    for (const hour of ['11', '15', '16']) {
      const racer = await createUser(t);
      await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(racer.token) });
      const byStaff = await roundTrips(
        () =>
          post(staff, '/api/reservations', {
            calendar: venue.seats[0].id,
            slot: `${day}T${hour}:00`,
            user: racer.id,
          }),
        201,
      );
      const byCustomer = await roundTrips(
        () =>
          post(racer, '/api/reservations', {
            calendar: venue.seats[1].id,
            slot: `${day}T${hour}:00`,
          }),
        201,
      );
      console.log(
        'staff booking:',
        byStaff.database.length,
        'round trips',
        byStaff.barrier,
        'barrier; customer booking:',
        byCustomer.database.length,
        'round trips',
        byCustomer.barrier,
        'barrier',
      );
      staffCounts.push(byStaff.database.length);
      customerCounts.push(byCustomer.database.length);
    }
    // The booking's statement, then its announcement (on the change feed's connection, as its
    // barrier query, decision 0063).
    expect(Math.min(...staffCounts)).toBe(2);
    expect(Math.min(...customerCounts)).toBe(2);
  });

  it('processing a checkout of one seat with the local provider', async () => {
    // Three checkouts on one seat, the fewest round trips counted: a session read again because
    // an announcement arrived while an earlier request cached it (session-cache.ts), or the
    // change log's pruning (one change in a hundred), is an accident; a query the checkout itself
    // adds shows in every one.
    // The confirmation is sent after the answer (decision 0059): its sender's queries are not the
    // request's, so it waits until the counting is done.
    const wake = t.app.receipts.wake;
    t.app.receipts.wake = () => {};
    const counts: number[] = [];
    for (const hour of ['12', '13', '14']) {
      const quoted = await post(customer, '/api/reservations/checkouts/quote', {
        reservations: [{ calendar: venue.seats[2].id, slot: `${day}T${hour}:00` }],
      });
      expect(quoted.statusCode).toBe(200);
      const id = quoted.json().checkout_id as number;
      const processed = await roundTrips(
        () => post(customer, `/api/reservations/checkouts/${id}/process`, {}),
        200,
      );
      console.log(
        'checkout process:',
        processed.database.length,
        'round trips',
        processed.barrier,
        'barrier',
      );
      counts.push(processed.database.length);
      // One commit per step waits for the WAL flush (decision 0094): the claim's transaction,
      // the charge with its Charge row (one statement, decision 0062), the finishing statement.
      // (The change log's pruning, one call in a hundred, is housekeeping, not the checkout's;
      // an announcement writes nothing.)
      const flushed: string[] = [];
      let inTransaction = false;
      for (const q of processed.database) {
        if (q === 'begin') inTransaction = true;
        else if (q === 'commit') {
          inTransaction = false;
          flushed.push(q);
        } else if (
          !inTransaction &&
          /\b(insert|update|delete)\b/i.test(q) &&
          !q.includes('delete from change_events')
        )
          flushed.push(q);
      }
      expect(flushed).toHaveLength(3);
      expect(flushed[0]).toBe('commit');
      expect(flushed[1]).toMatch(/insert into "charges"/);
      expect(flushed[2]).toMatch(/update checkouts set status = 'paid'/);
    }
    t.app.receipts.wake = wake;
    // The one path (decision 0094): the unpaid-limit check (the checkout, the card); the claim's
    // transaction (begin, the checkout locked, its seats, the waitlist holds, the bookings, their
    // change, the status, commit); the charge (the location, the card, the charge with its
    // Charge row); the finish (the bookings and the location for the answer, the finishing
    // statement, which also records the confirmation owed); the seats' announcement.
    expect(Math.min(...counts)).toBe(18);
  });
});
