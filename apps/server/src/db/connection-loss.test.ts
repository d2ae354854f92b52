import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser, type CreatedUser } from '../test/factories';
import { createVenue, futureDate } from '../test/booking-factories';
import { listen } from '../test/event-stream';
import { until } from '../test/until';
import { EXPECTED_STATUSES, startWriteLoad, summary } from '../test/write-load';

// Issue 27: a connection that PostgreSQL ends (a failover, a DBA, an idle timeout) failed a
// checked-out client with an unhandled 'error' event, and that killed the process.

let t: TestApp;
let admin: pg.Client;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 4 });
  staff = await createUser(t, { isStaff: true, isSuperuser: true });
  admin = new pg.Client({ connectionString: t.deps.database.url });
  await admin.connect();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await admin?.end();
  await t?.close();
});

/** Ends every other connection to the app's database: the pool's, the feed's, the lanes'. */
async function terminateAll(): Promise<number> {
  const { rows } = await admin.query<{ ended: boolean }>(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rows.filter((r) => r.ended).length;
}

/** Until the app says it is ready again (database, migrations, change feed). */
async function waitReady() {
  const end = Date.now() + 20_000;
  while ((await t.app.inject({ url: '/api/ready' })).statusCode !== 200) {
    if (Date.now() > end) throw new Error('not ready again');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('every app connection terminated under write load', () => {
  it('keeps answering: 503 with Retry-After or success, then books, reads and announces', async () => {
    const stream = await listen(`${baseUrl}/api/events?topics=reservations`, bearer(staff.token));
    const load = await startWriteLoad(t, [venue.seats[0].id, venue.seats[1].id, venue.seats[2].id]);
    let ended = 0;
    for (let round = 0; round < 8; round += 1) {
      await new Promise((r) => setTimeout(r, 150));
      ended += await terminateAll();
    }
    const answers = await load.stop();
    console.log(`terminated ${ended} backends; answers: ${summary(answers)}`);
    expect(ended).toBeGreaterThan(8);
    const unexpected = answers.filter((a) => !EXPECTED_STATUSES.includes(a.status));
    expect(unexpected).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503);
    for (const a of unavailable) expect(a.retryAfter).toMatch(/^\d+$/);
    expect(answers.filter((a) => a.status === 200 || a.status === 201).length).toBeGreaterThan(0);

    // Afterwards: a booking, a read of the seat's day and the change feed all work again.
    const seat = venue.seats[3].id;
    const customer = await createUser(t);
    await waitReady();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(customer.token),
      payload: { calendar: seat, slot: `${futureDate(3)}T12:00` },
    });
    expect(res.statusCode).toBe(201);
    const read = await t.app.inject({
      url: `/api/reservations?calendar=${seat}&slot__startswith=${futureDate(3)}`,
      headers: bearer(staff.token),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().count).toBe(1);
    // The stream open through it all was ended when the feed came back (what the feed missed is
    // unknown); its client resumes from the last change it had, and hears new ones.
    await until(() => stream.ended);
    const lastId = stream.events.at(-1)?.id ?? 0;
    const resumed = await listen(`${baseUrl}/api/events?topics=reservations`, {
      ...bearer(staff.token),
      'last-event-id': String(lastId),
    });
    await until(() =>
      resumed.events.some((e) => e.data.topic === 'reservations' && e.data.id === seat),
    );
    resumed.close();

    // No connection stayed checked out by a request the loss failed (drizzle's `begin` outside
    // its try: db/client.ts): every slot is back, so the pool can end.
    const pool = t.deps.database.pool;
    await until(() => pool.totalCount === pool.idleCount && pool.waitingCount === 0);
  });
});
