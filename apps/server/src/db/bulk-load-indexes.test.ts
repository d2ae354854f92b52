import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { createIndexes, dropSecondaryIndexes } from './bulk-load-indexes';

// The chain seed and the restore drop a table's secondary indexes for a bulk load and build them
// once after it; the connection they used goes back to the pool as it was.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.database.pool.query(
    `create table bulk_rows (id serial primary key, code text unique, n int);
     create index bulk_rows_n on bulk_rows (n)`,
  );
});
afterAll(() => t.close());

const indexes = async () =>
  (
    await t.deps.database.pool.query<{ name: string }>(
      `select indexname as name from pg_indexes where tablename = 'bulk_rows' order by 1`,
    )
  ).rows.map((r) => r.name);

it('drops only the secondary indexes, builds them again, and leaves the connection’s memory setting as it was', async () => {
  const client = await t.deps.database.pool.connect();
  try {
    await client.query(`set maintenance_work_mem = '65MB'`);
    const dropped = await dropSecondaryIndexes(client, ['bulk_rows']);
    expect(await indexes()).toEqual(['bulk_rows_code_key', 'bulk_rows_pkey']);
    await client.query(
      `insert into bulk_rows (code, n) select 'c' || g, g from generate_series(1, 1000) g`,
    );
    await createIndexes(client, dropped);
    expect(await indexes()).toEqual(['bulk_rows_code_key', 'bulk_rows_n', 'bulk_rows_pkey']);
    expect(
      (await client.query<{ m: string }>(`select current_setting('maintenance_work_mem') as m`))
        .rows[0].m,
    ).toBe('65MB');
  } finally {
    client.release();
  }
});
