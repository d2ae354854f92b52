import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { connect, type Database } from './client';
import { createTestApp, type TestApp } from '../test/test-app';

// drizzle's transaction() sends `begin` outside its try/finally: a connection lost right after
// the checkout left the client checked out for good (issue 27). One slot, so a leak shows.

let t: TestApp;
let database: Database;

beforeAll(async () => {
  t = await createTestApp();
  database = connect(t.deps.database.url, 1);
});
afterAll(async () => {
  await database?.close();
  await t?.close();
});

/** Cuts the socket of the next client the pool hands out, as a terminated backend would. */
function cutNextCheckout(pool: pg.Pool) {
  pool.once('acquire', (client) => {
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
  });
}

describe('a connection lost between checkout and begin', () => {
  it('gives its pool slot back: the next query runs, and the pool ends', async () => {
    cutNextCheckout(database.pool);
    await expect(
      database.db.transaction(async (tx) => tx.execute(sql`select 1`)),
    ).rejects.toThrow();
    const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
    expect(rows[0].one).toBe(1);
    expect(database.pool.totalCount).toBe(1);
  });

  it('a holder that releases after the loss does not release twice', async () => {
    const client = await database.pool.connect();
    client.release(new Error('lost'));
    expect(() => client.release()).not.toThrow();
    const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
    expect(rows[0].one).toBe(1);
  });
});
