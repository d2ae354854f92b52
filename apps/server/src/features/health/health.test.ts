import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../app';
import { connect } from '../../db/client';
import { databaseUrl } from '../../test/database-url';
import { createTestApp, type TestApp } from '../../test/test-app';
import { endChangeFeedConnection } from '../../test/change-feed';
import { freePort } from '../../test/free-port';
import { answerUntil } from '../../test/requests';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health and GET /api/ready', () => {
  it('answer 200 on a working instance, to anyone, uncached', async () => {
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', changes: 'ok' },
    });
  });

  it('ready is 503 naming the change feed while its connection is down, then 200 again', async () => {
    await endChangeFeedConnection(t);
    const down = await answerUntil(t.app, '/api/ready', (res) => res.statusCode === 503);
    expect(down.json()).toEqual({
      status: 'not_ready',
      detail: 'Not ready: changes.',
      checks: { database: 'ok', migrations: 'ok', changes: 'down' },
    });
    // The listener comes back by itself (back-off from 250 ms).
    await answerUntil(t.app, '/api/ready', (res) => res.statusCode === 200);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('many probes at once cost one query on the wire', async () => {
    let checkouts = 0;
    const count = () => (checkouts += 1);
    t.deps.database.pool.on('acquire', count);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ url: '/api/ready' })),
    );
    t.deps.database.pool.off('acquire', count);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(checkouts).toBeLessThanOrEqual(2);
  });

  it('ready is 503 naming migrations on a database that was never migrated', async () => {
    const adminUrl = inject('dbAdminUrl');
    const name = `paddock_empty_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const database = connect(databaseUrl(adminUrl, name), 2);
    const app = await buildApp({ ...t.deps, database });
    try {
      const res = await answerUntil(app, '/api/ready', (r) => r.statusCode === 503);
      expect(res.json()).toEqual({
        status: 'not_ready',
        detail: 'Not ready: migrations.',
        checks: { database: 'ok', migrations: 'down', changes: 'ok' },
      });
    } finally {
      await app.close();
      await database.close();
      await admin.query(`drop database "${name}" with (force)`);
      await admin.end();
    }
  });

  it('an instance whose database does not answer: ready 503 naming it, requests 503 with Retry-After', async () => {
    const url = new URL(t.deps.database.url);
    url.port = String(await freePort());
    const database = connect(url.toString(), 2);
    const app = await buildApp({ ...t.deps, database });
    try {
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
      const ready = await app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'not_ready',
        detail: 'Not ready: database, migrations, changes.',
        checks: { database: 'down', migrations: 'down', changes: 'down' },
      });
      const locations = await app.inject({ url: '/api/locations' });
      expect(locations.statusCode).toBe(503);
      expect(locations.headers['retry-after']).toBe('2');
      expect(locations.json()).toEqual({
        detail: 'The service is briefly unavailable. Please try again in a moment.',
        code: 'database_unavailable',
      });
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('ready is 503 "shutting down" once the instance drains (SIGTERM), health still 200', async () => {
    const app = await buildApp({ ...t.deps });
    try {
      expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      app.draining.start();
      const ready = await app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers.connection).toBe('close');
      expect(ready.json()).toMatchObject({
        status: 'not_ready',
        detail: 'Not ready: shutting down.',
      });
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
