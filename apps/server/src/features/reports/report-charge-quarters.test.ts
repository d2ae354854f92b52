import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Report } from '@paddock/contract/reports';
import { createTestApp, type TestApp } from '../../test/test-app';
import { untilWaitingOnLock } from '../../test/lock-wait';
import { bookAndPay } from '../../test/requests';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// report_charge_quarters (decision 0107) is kept by a deferred constraint trigger on charges:
// whatever a write does, once it commits the rollup must equal a GROUP BY over the charges, and
// a write that never commits must leave it as it was.
let t: TestApp;
let pool: pg.Pool;
let admin: pg.Client;
let owner: CreatedUser;
let alice: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;

beforeAll(async () => {
  t = await createTestApp();
  pool = t.deps.database.pool;
  admin = new pg.Client({ connectionString: t.deps.database.url });
  await admin.connect();
  venue = await createVenue(t, { seats: 2, costCents: 4000 });
  owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
  alice = await createUser(t, { firstName: 'Alice', lastName: 'Racer' });
  await saveTestCard(t, alice);
});
afterAll(async () => {
  await admin?.end();
  await t?.close();
});

const KEPT = `select bucket, kind, method, referenced, succeeded, amount_cents::text as cents, charges
              from report_charge_quarters order by 1, 2, 3, 4, 5`;
const COUNTED = `select date_bin('15 minutes', created_at, timestamptz '2000-01-01Z') as bucket, kind,
                        coalesce(method, '') as method, charge_ref is not null as referenced,
                        errors = '' as succeeded, sum(amount_cents)::text as cents, count(*)::int as charges
                 from charges group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`;

async function expectInStep() {
  const kept = (await pool.query(KEPT)).rows;
  expect(kept).toEqual((await pool.query(COUNTED)).rows);
  return kept;
}

let keys = 0;
/** Inserts a charge and answers its id; `at` is an ISO instant. */
async function charge(
  c: pg.Pool | pg.PoolClient,
  at: string,
  fields: { kind?: string; cents?: number; ref?: string | null; method?: string; errors?: string },
) {
  const { rows } = await c.query<{ id: number }>(
    `insert into charges (amount_cents, kind, charge_ref, method, errors, idempotency_key, created_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      fields.cents ?? 1000,
      fields.kind ?? 'booking',
      fields.ref === undefined ? `ch_${keys}` : fields.ref,
      fields.method ?? null,
      fields.errors ?? '',
      `rollup-${(keys += 1)}`,
      at,
    ],
  );
  return rows[0].id;
}

describe('report_charge_quarters', () => {
  it('follows inserts, updates, deletes and rollbacks, at commit', async () => {
    const a = await charge(pool, '2031-03-01T10:00:00Z', { cents: 2500 });
    const b = await charge(pool, '2031-03-01T10:14:59.999Z', { cents: 1500 }); // same bucket
    const c = await charge(pool, '2031-03-01T10:15:00Z', { kind: 'club', cents: 3600 });
    const d = await charge(pool, '2031-03-01T10:20:00Z', {
      kind: 'desk',
      method: 'cash',
      ref: null,
    });
    const kept = await expectInStep();
    expect(kept.find((r) => r.bucket.toISOString() === '2031-03-01T10:00:00.000Z')).toMatchObject({
      kind: 'booking',
      cents: '4000',
      charges: 2,
    });

    // The provider said no after all; a reference given later; a method and an amount changed;
    // a charge moved to another quarter-hour; another kind.
    await pool.query(`update charges set errors = 'Your card was declined.' where id = $1`, [a]);
    await expectInStep();
    const late = await charge(pool, '2031-03-01T11:00:00Z', { ref: null, cents: 700 });
    await expectInStep();
    await pool.query(`update charges set charge_ref = 'ch_late' where id = $1`, [late]);
    await expectInStep();
    await pool.query(`update charges set method = 'terminal' where id = $1`, [d]);
    await pool.query(`update charges set amount_cents = 2000000000 where id = $1`, [b]);
    await pool.query(
      `update charges set created_at = '2031-03-02T23:45:00Z', kind = 'voucher' where id = $1`,
      [c],
    );
    await pool.query(`update charges set notes = 'no dimension changed' where id = $1`, [b]);
    await expectInStep();

    // Deletes: a bucket row nobody is left in goes.
    await pool.query(`delete from charges where id = any($1)`, [[a, late]]);
    const afterDelete = await expectInStep();
    expect(afterDelete.filter((r) => Number(r.charges) === 0)).toEqual([]);

    // Rolled back, whole or to a savepoint: nothing of it counts.
    const client = await pool.connect();
    try {
      await client.query('begin');
      await charge(client, '2031-03-01T12:00:00Z', { cents: 999 });
      await client.query(`update charges set amount_cents = 1 where id = $1`, [b]);
      await client.query('rollback');
      await expectInStep();

      // One transaction: inserted, changed twice, one deleted again, one part rolled back.
      await client.query('begin');
      const e = await charge(client, '2031-03-01T12:00:00Z', { cents: 100 });
      await client.query(`update charges set amount_cents = 200 where id = $1`, [e]);
      await client.query(`update charges set created_at = '2031-03-01T12:30:00Z' where id = $1`, [
        e,
      ]);
      const f = await charge(client, '2031-03-01T12:00:00Z', { cents: 300 });
      await client.query(`delete from charges where id = $1`, [f]);
      await client.query('savepoint s');
      await charge(client, '2031-03-01T13:00:00Z', { cents: 5 });
      await client.query(`update charges set errors = 'x' where id = $1`, [e]);
      await client.query('rollback to savepoint s');
      // Not applied before the commit: the bucket rows are only touched then.
      const during = await admin.query(
        `select count(*)::int as n from report_charge_quarters where bucket >= '2031-03-01T12:00Z'
           and bucket < '2031-03-01T14:00Z'`,
      );
      expect(during.rows[0].n).toBe(0);
      await client.query('commit');
    } finally {
      client.release();
    }
    const end = await expectInStep();
    expect(end.find((r) => r.bucket.toISOString() === '2031-03-01T12:30:00.000Z')).toMatchObject({
      cents: '200',
      charges: 1,
    });
  });

  it('counts what a checkout writes through the API', async () => {
    const day = futureDate(5);
    await bookAndPay(t, alice, [{ calendar: venue.seats[0].id, slot: `${day}T18:00` }]);
    const kept = await expectInStep();
    expect(kept.some((r) => r.kind === 'booking' && r.referenced && r.succeeded)).toBe(true);
  });

  it('is left as it was when the connection ends before the commit, and the pool answers on', async () => {
    const before = await expectInStep();
    const existing = await charge(pool, '2031-04-01T09:00:00Z', { cents: 4200 });
    const withExisting = await expectInStep();
    expect(withExisting.length).toBe(before.length + 1);

    // Ended in the middle of the transaction, and ended inside COMMIT itself (held at the
    // trigger's lock, which this test takes first): neither leaves anything behind.
    for (const during of ['transaction', 'commit'] as const) {
      const client = await pool.connect();
      client.on('error', () => {}); // the pool's own listener logs; this one keeps the test quiet
      await client.query('begin');
      await charge(client, '2031-04-01T09:05:00Z', { cents: 11 });
      await charge(client, '2031-04-01T10:00:00Z', { kind: 'voucher', cents: 22 });
      await client.query(`update charges set amount_cents = 1 where id = $1`, [existing]);
      const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
        .pid;
      let outcome: Promise<unknown> = Promise.resolve();
      if (during === 'commit') {
        await admin.query('select pg_advisory_lock(1070107)');
        outcome = client.query('commit').then(
          () => 'committed',
          (e: Error) => e.message,
        );
        // Until its commit waits for the lock inside the trigger.
        await untilWaitingOnLock(admin, pid);
      }
      await admin.query('select pg_terminate_backend($1)', [pid]);
      if (during === 'commit') {
        await admin.query('select pg_advisory_unlock(1070107)');
        expect(await outcome).not.toBe('committed');
      }
      client.release(true);
      expect(await expectInStep()).toEqual(withExisting);
    }

    // The pool still answers: a report, and a write that commits and is counted.
    const res = await t.app.inject({
      url: `/api/reports?location=${venue.location.id}&from=2031-04-01&to=2031-04-01`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Report).takings_by_method.card_cents).toBe(4200);
    await charge(pool, '2031-04-01T09:20:00Z', { cents: 11 });
    expect((await expectInStep()).length).toBe(withExisting.length + 1);
  });
});
