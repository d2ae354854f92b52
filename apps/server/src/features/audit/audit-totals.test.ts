import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, type TestApp } from '../../test/test-app';
import { untilWaitingOnLock } from '../../test/lock-wait';
import { bearer, createUser, type CreatedUser } from '../../test/factories';

// audit_totals (decision 0108) is kept by a deferred constraint trigger on audit_events: once a
// write commits, the kept total equals a count of the trail, and a write that never commits
// leaves it as it was. The trail's unfiltered page count is that total.
let t: TestApp;
let pool: pg.Pool;
let admin: pg.Client;
let auditor: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  pool = t.deps.database.pool;
  admin = new pg.Client({ connectionString: t.deps.database.url });
  await admin.connect();
  auditor = await createUser(t, { isStaff: true, permissions: ['audit.view_event'] });
});
afterAll(async () => {
  await admin?.end();
  await t?.close();
});

type Q = Pick<pg.ClientBase, 'query'>;
const audit = (q: Q, action = 'test.total') =>
  q.query(`insert into audit_events (action, target_type) values ($1, 'test')`, [action]);
const kept = async () =>
  Number((await pool.query(`select events from audit_totals`)).rows[0]?.events ?? 0);
const counted = async () =>
  (await pool.query<{ n: number }>(`select count(*)::int as n from audit_events`)).rows[0].n;

/** The kept total is the trail's count, and the API's page count says it. */
async function expectInStep() {
  const n = await counted();
  expect(await kept()).toBe(n);
  const res = await t.app.inject({ url: '/api/audit?page=1', headers: bearer(auditor.token) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().count).toBe(n);
  return n;
}

describe('the audit trail’s kept total', () => {
  it('follows inserts and deletes at commit, and not a rollback', async () => {
    const start = await expectInStep();
    await audit(pool);
    await audit(pool);
    expect(await expectInStep()).toBe(start + 2);

    const client = await pool.connect();
    try {
      await client.query('begin');
      for (let i = 0; i < 5; i++) await audit(client);
      // Not before the commit: the total is changed when the transaction commits.
      expect(await kept()).toBe(start + 2);
      await client.query('commit');
      await client.query('begin');
      await audit(client);
      await client.query(`delete from audit_events where action = 'test.total'`);
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await expectInStep()).toBe(start + 7);
    await pool.query(`delete from audit_events where id in
                        (select id from audit_events where action = 'test.total' limit 3)`);
    expect(await expectInStep()).toBe(start + 4);
  });

  it('is left as it was when the connection ends before or inside the commit, and the pool answers on', async () => {
    const before = await expectInStep();
    for (const during of ['transaction', 'commit'] as const) {
      const client = await pool.connect();
      client.on('error', () => {}); // the pool's own listener logs; this one keeps the test quiet
      await client.query('begin');
      await audit(client);
      await audit(client);
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
        .pid;
      let outcome: Promise<unknown> = Promise.resolve();
      let holder: pg.PoolClient | undefined;
      if (during === 'commit') {
        // Another transaction holds the total's row: the commit waits inside its trigger.
        holder = await pool.connect();
        await holder.query('begin');
        await holder.query('select events from audit_totals for update');
        outcome = client.query('commit').then(
          () => 'committed',
          (e: Error) => e.message,
        );
        await untilWaitingOnLock(admin, pid);
      }
      await admin.query('select pg_terminate_backend($1)', [pid]);
      if (holder) {
        await holder.query('rollback');
        holder.release();
        expect(await outcome).not.toBe('committed');
      }
      client.release(true);
      expect(await expectInStep()).toBe(before);
    }
    // The pool answers, and a write after it is counted.
    await audit(pool);
    expect(await expectInStep()).toBe(before + 1);
  });

  it('counts what a staff action writes through the API', async () => {
    const before = await expectInStep();
    const staff = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(staff.token),
      payload: { company_name: 'Totals Arena' },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await expectInStep()).toBeGreaterThan(before);
  });
});
