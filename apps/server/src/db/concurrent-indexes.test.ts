import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, type TestApp } from '../test/test-app';
import { createVenue } from '../test/booking-factories';
import { RETIRED_INDEXES, buildConcurrentIndexes, dropRetiredIndexes } from './concurrent-indexes';

// Decision 0092: an index on a big table is built concurrently after the migrations, so a
// booking paid while it builds is not held. The build is made to wait on an open transaction
// (as it would on any long request), and a booking and its charge are written meanwhile.

let t: TestApp;
let url: string;
let seat: number;
const INDEX = { name: 'charges_created', definition: 'on charges using btree (created_at)' };

beforeAll(async () => {
  t = await createTestApp();
  url = t.deps.database.url;
  const venue = await createVenue(t, { seats: 1, costCents: 2500, timezone: 'UTC' });
  seat = venue.seats[0].id;
  await t.deps.database.pool.query(
    `insert into charges (amount_cents, idempotency_key, kind, charge_ref, created_at)
     select 2500, 'history-' || g, 'booking', 'ch_' || g, now() - make_interval(mins => g)
     from generate_series(1, 20000) g`,
  );
});
afterAll(() => t.close());

async function client() {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Waits until the build is waiting for the open transaction (a state, not a time). */
async function untilWaiting(watcher: pg.Client, pid: number) {
  for (;;) {
    const { rows } = await watcher.query<{ waiting: boolean }>(
      `select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`,
      [pid],
    );
    if (rows[0]?.waiting) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A booking paid by card while `build` runs on another connection; the booking's outcome. */
let run = 0;
async function bookWhileBuilding(build: (c: pg.Client) => Promise<unknown>) {
  run += 1;
  const [holder, builder, desk] = [await client(), await client(), await client()];
  try {
    await t.deps.database.pool.query(`drop index if exists charges_created`);
    await holder.query('begin');
    await holder.query(
      `insert into charges (amount_cents, idempotency_key, kind)
                        values (100, $1, 'desk')`,
      [`open-transaction-${run}`],
    );
    const pid = (await builder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
      .pid;
    const building = build(builder);
    await untilWaiting(desk, pid);
    // Bounds a wrong (blocked) run; a right one answers at once.
    await desk.query(`set lock_timeout = '3s'`);
    const outcome = await desk
      .query('begin')
      .then(() =>
        desk.query(
          `insert into charges (amount_cents, idempotency_key, kind, charge_ref)
           values (2500, $1, 'booking', 'ch_during') returning id`,
          [`during-build-${run}`],
        ),
      )
      .then((charge) =>
        desk.query(
          `insert into reservations (calendar_id, slot, time, paid, amount_cents, charge_id)
           values ($1, $2, $3, true, 2500, $4)`,
          [seat, `2030-01-0${run}T10:00`, `2030-01-0${run}T10:00Z`, charge.rows[0].id],
        ),
      )
      .then(() => desk.query('commit'))
      .then(
        () => 'booked',
        async (e: { code?: string }) => {
          await desk.query('rollback');
          return e.code === '55P03' ? 'held by the index build' : String(e);
        },
      );
    const stillBuilding = (
      await desk.query(
        `select count(*)::int as n from pg_stat_activity where pid = $1
                        and query ilike 'create index%'`,
        [pid],
      )
    ).rows[0].n;
    await holder.query('commit');
    await building;
    return { outcome, stillBuilding };
  } finally {
    await Promise.all([holder.end(), builder.end(), desk.end()]);
  }
}

describe('an index built concurrently after the migrations', () => {
  it('lets a booking and its charge be written while it builds, then is valid', async () => {
    const { outcome, stillBuilding } = await bookWhileBuilding((c) =>
      buildConcurrentIndexes(c as unknown as pg.PoolClient, [INDEX]),
    );
    expect(outcome).toBe('booked');
    expect(stillBuilding).toBe(1);
    const { rows } = await t.deps.database.pool.query<{ valid: boolean }>(
      `select indisvalid as valid from pg_index where indexrelid = 'charges_created'::regclass`,
    );
    expect(rows[0].valid).toBe(true);
  });

  it('where a plain CREATE INDEX (what drizzle would run) holds the booking', async () => {
    const { outcome } = await bookWhileBuilding((c) =>
      c.query(`create index charges_created ${INDEX.definition}`),
    );
    expect(outcome).toBe('held by the index build');
  });

  it('replaces an index an interrupted build left invalid', async () => {
    const pool = t.deps.database.pool;
    await pool.query(`drop index if exists charges_created`);
    await pool.query(`create index charges_created ${INDEX.definition}`);
    await pool.query(`update pg_index set indisvalid = false
                      where indexrelid = 'charges_created'::regclass`);
    const c = await pool.connect();
    try {
      await buildConcurrentIndexes(c, [INDEX]);
    } finally {
      c.release();
    }
    const { rows } = await pool.query<{ valid: boolean }>(
      `select indisvalid as valid from pg_index where indexrelid = 'charges_created'::regclass`,
    );
    expect(rows[0].valid).toBe(true);
  });
});

describe('a retired index (decision 0107)', () => {
  it('is dropped concurrently after the migrations, and dropping again is a no-op', async () => {
    const pool = t.deps.database.pool;
    const present = async () =>
      (
        await pool.query<{ name: string }>(
          `select relname as name from pg_class where relname = any($1) order by 1`,
          [RETIRED_INDEXES],
        )
      ).rows.map((r) => r.name);
    expect(await present()).toEqual([]); // the migrated template never has them
    // A database from before 0107 had them.
    await pool.query(`create index charges_takings on charges (created_at) where errors = ''`);
    await pool.query(`create index charges_kind_created on charges (kind, created_at)`);
    expect(await present()).toEqual(['charges_kind_created', 'charges_takings']);
    const c = await pool.connect();
    try {
      await dropRetiredIndexes(c);
      await dropRetiredIndexes(c);
    } finally {
      c.release();
    }
    expect(await present()).toEqual([]);
  });
});
