import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import type { App } from '../deps';
import { loadConfig } from '../config';
import { connect, CONNECT_WAIT_MS, ensureDatabase, runMigrations, type Database } from './client';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded';
import { createMailer } from '../plugins/mail';
import { createPaymentProvider } from '../plugins/payments/create-provider';
import { Tokens } from '../plugins/auth';
import { bearer, createUser } from '../test/factories';
import { createVenue, futureDate } from '../test/booking-factories';
import { EXPECTED_STATUSES, startWriteLoad, summary, type LoadTarget } from '../test/write-load';
import { until } from '../test/until';

// Issue 27 / 29: PostgreSQL restarted (fast and immediate) under write load. The app answers 503
// with Retry-After while it is away (not 500, not a hang) and recovers by itself. A server of
// its own: the other test files share the run's server, which must not stop under them.

let dir: string;
let server: EmbeddedServer;
let database: Database;
let app: App;
let target: LoadTarget;
let seats: number[];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-restart-'));
  await fs.chmod(dir, 0o777);
  server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
  await ensureDatabase(server.url('postgres'), 'paddock');
  database = connect(server.url('paddock'), 5);
  await runMigrations(database);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir });
  const tokens = new Tokens('test-secret-test-secret-test-secret-0123', 3600);
  app = await buildApp({
    config,
    database,
    mailer: createMailer({ from: config.mailFrom, dataDir: dir, db: database.db }),
    payments: await createPaymentProvider(config, database.db),
    tokens,
  });
  await app.ready();
  target = { app, db: database.db, deps: { tokens } };
  const venue = await createVenue(target, { seats: 3 });
  seats = venue.seats.map((s) => s.id);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
  await server?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** `url`'s answer once it has `status`. */
const answering = (url: string, status: number) =>
  until(
    async () => {
      const res = await app.inject({ url });
      return res.statusCode === status ? res : undefined;
    },
    { ms: 30_000, what: `${url} to answer ${status}` },
  );

describe('PostgreSQL restarted under write load', () => {
  it.each(['fast', 'immediate'] as const)(
    '%s stop: 503 with Retry-After while away, no hang, back by itself',
    async (mode) => {
      const customer = await createUser(target);
      const load = await startWriteLoad(target, seats, { workers: 4 });
      await new Promise((r) => setTimeout(r, 300));
      await server.stop(mode);

      // While it is away: a write answers 503 at once or within the pool's connect wait.
      const started = Date.now();
      const booking = await app.inject({
        method: 'POST',
        url: '/api/reservations',
        headers: bearer(customer.token),
        payload: { calendar: seats[0], slot: `${futureDate(mode === 'fast' ? 20 : 21)}T10:00` },
      });
      expect(Date.now() - started).toBeLessThan(CONNECT_WAIT_MS + 2000);
      expect(booking.statusCode).toBe(503);
      expect(booking.headers['retry-after']).toBe('2');
      const ready = await answering('/api/ready', 503);
      expect(ready.json().checks.database).toBe('down');
      expect(ready.json().detail).toMatch(/database/);
      await new Promise((r) => setTimeout(r, 500));

      await server.start();
      await answering('/api/ready', 200);
      const answers = await load.stop();
      console.log(`${mode} stop: ${summary(answers)}`);
      expect(answers.filter((a) => !EXPECTED_STATUSES.includes(a.status))).toEqual([]);
      for (const a of answers.filter((x) => x.status === 503)) expect(a.retryAfter).toBe('2');
      expect(answers.some((a) => a.status === 503)).toBe(true);

      const again = await app.inject({
        method: 'POST',
        url: '/api/reservations',
        headers: bearer(customer.token),
        payload: { calendar: seats[0], slot: `${futureDate(mode === 'fast' ? 20 : 21)}T10:00` },
      });
      expect(again.statusCode).toBe(201);
    },
    90_000,
  );
});
