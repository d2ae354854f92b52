// The checkout stage of `npm run bench` alone (decision 0062): the bare raw INSERT and
// POST /api/reservations/checkouts/{id}/process (one seat, saved card, local provider) in
// alternating rounds, for one customer's checkouts and for 100 customers', with the CPU each
// process group used per request read from /proc, what the busy PostgreSQL backends wait on and
// which locks they wait for (sampled every 20 ms), and pg_stat_statements. Not part of
// `npm test`. `npx tsx apps/server/bench/checkout-stage.ts`; knobs: BENCH_PORT_BASE,
// BENCH_SECONDS (8), BENCH_ROUNDS (2), BENCH_CUSTOMERS (100), BENCH_PROFILE=<dir>,
// BENCH_HISTORY (0: past paid bookings written first, as a venue's database after a year holds).
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Tokens } from '../src/plugins/auth';
import { paidCount, processLoad, quoteCheckouts, receiptsSent, warmUp } from './checkouts';
import {
  CONNECTIONS,
  cpuTicks,
  here,
  PORT_BASE,
  root,
  ROUNDS,
  scratchDir,
  SECONDS,
  SECRET,
  stageDatabase,
  TICK_MS,
  tsx,
  waitFor,
} from './stage-harness';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100);
const children: ChildProcess[] = [];
const tmp = scratchDir('paddock-checkout-bench-');

async function main() {
  const { server, postmaster, url, database } = await stageDatabase(tmp);
  const tokens = new Tokens(SECRET, 3600);

  const [appPort, barePort] = [PORT_BASE, PORT_BASE + 2];
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  const flags = JSON.parse(
    fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'),
  ) as string[];
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  const app = spawn(
    process.execPath,
    [...profile, ...flags, path.join(root, 'apps/server/dist/main.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url,
        PORT: String(appPort),
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        JWT_SECRET: SECRET,
        DATA_DIR: path.join(tmp, 'data'),
        AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      },
      stdio: ['ignore', 'ignore', process.env.BENCH_APP_STDERR ? 'inherit' : 'ignore'],
    },
  );
  children.push(app);
  await waitFor(`http://127.0.0.1:${appPort}/api/openapi.json`);
  fs.writeFileSync(path.join(tmp, 'x.json'), '{}');
  const bare = spawn(tsx, [path.join(here, 'bare-server.ts')], {
    env: {
      ...process.env,
      PORT: String(barePort),
      DATABASE_URL: url,
      AVAIL_JSON: path.join(tmp, 'x.json'),
      PARALLEL_JSON: path.join(tmp, 'x.json'),
    },
    stdio: 'ignore',
  });
  children.push(bare);
  await waitFor(`http://127.0.0.1:${barePort}/avail`);

  const slots: { calendar: number; slot: string }[] = [];
  for (let n = 0; n < 100_000; n++) slots.push({ calendar: n % 20, slot: `s${n}` });
  const appBase = `http://127.0.0.1:${appPort}`;
  const one = await quoteCheckouts({ database, tokens, appBase, customers: 1, name: 'One' });
  const many = await quoteCheckouts({
    database,
    tokens,
    appBase,
    customers: CUSTOMERS,
    name: 'Many',
  });
  const history = Number(process.env.BENCH_HISTORY ?? 0);
  if (history > 0) {
    // A seat of its own, half-hours back from yesterday (decision 0069: what a checkout
    // statement scans, if it scans, grows with these).
    const [{ id: seat }] = (
      await database.pool.query<{ id: number }>(
        `insert into calendars (name, location_id, type_id, cost_cents)
         select 'History', location_id, type_id, cost_cents from calendars limit 1 returning id`,
      )
    ).rows;
    await database.pool.query(
      `insert into reservations (calendar_id, slot, time, paid, amount_cents)
       select $1::int, to_char(t, 'YYYY-MM-DD"T"HH24:MI'), t, true, 2500
       from generate_series(date_trunc('day', now()) - interval '30 minutes',
         date_trunc('day', now()) - ($2::int * interval '30 minutes'), -interval '30 minutes') t`,
      [seat, history],
    );
    await database.pool.query('vacuum analyze reservations');
    console.log(`history: ${history} past paid bookings`);
  }
  let nextBare = 0;
  const measure = async (title: string, pid: number, opts: autocannon.Options) => {
    const before = [cpuTicks(postmaster), cpuTicks(pid), process.cpuUsage()] as const;
    // What the busy backends wait on, sampled every 20 ms (CPU when no wait event).
    const waits = new Map<string, number>();
    const lockWaits = new Map<string, number>();
    let samples = 0;
    const walOf = async () =>
      (
        await database.pool.query<{ b: string; f: string }>(
          `select wal_bytes::text as b, wal_fpi::text as f from pg_stat_wal`,
        )
      ).rows[0];
    const wal = await walOf();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await database.pool.query<{ w: string }>(
          `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as w from pg_stat_activity
           where state = 'active' and pid <> pg_backend_pid() and datname = 'bench'`,
        );
        samples++;
        for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
        // Which locks the waiting backends want, and the statement that holds them up.
        const locks = await database.pool.query<{ l: string }>(
          `select l.locktype || ' ' || coalesce(l.relation::regclass::text, '') || ' ' || l.mode
             || ' <- ' || left(regexp_replace(a.query, '\\s+', ' ', 'g'), 60) as l
           from pg_locks l join pg_stat_activity a on a.pid = l.pid
           where not l.granted and a.datname = 'bench'`,
        );
        for (const r of locks.rows) lockWaits.set(r.l, (lockWaits.get(r.l) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const tables = async () =>
      new Map(
        (
          await database.pool.query<{ t: string; w: string }>(
            `select relname as t, (n_tup_ins + n_tup_upd + n_tup_del)::text as w
             from pg_stat_user_tables`,
          )
        ).rows.map((r) => [r.t, Number(r.w)]),
      );
    const writesBefore = await tables();
    const paid = await paidCount(database);
    const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
    sampling = false;
    await sampler;
    // A checkout's confirmation is its work too: counted once every one is sent.
    await receiptsSent(database);
    const checkouts = (await paidCount(database)) - paid;
    const used = process.cpuUsage(before[2]);
    const n = checkouts > 0 ? checkouts : result.requests.total;
    const perReq = (ticks: number) => ((ticks * TICK_MS) / n).toFixed(2);
    console.log(
      `${title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p99 ${String(result.latency.p99).padStart(4)} ms  non-2xx ${result.non2xx + result.errors}  CPU ms/request: PostgreSQL ${perReq(cpuTicks(postmaster) - before[0])}, server ${perReq(cpuTicks(pid) - before[1])}, load ${((used.user + used.system) / 1000 / n).toFixed(2)}`,
    );
    const all = [...waits.values()].reduce((a, b) => a + b, 0);
    const walNow = await walOf();
    console.log(
      `  WAL per request: ${((Number(walNow.b) - Number(wal.b)) / n).toFixed(0)} B, ${((Number(walNow.f) - Number(wal.f)) / n).toFixed(2)} full-page images; active backends ${(all / samples).toFixed(1)} on average, by wait: ${[
        ...waits.entries(),
      ]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([w, n]) => `${w} ${((n / all) * 100).toFixed(0)}%`)
        .join(', ')}`,
    );
    // Rows written per request, by table (pg_stat_user_tables; reported with some delay).
    await new Promise((r) => setTimeout(r, 600));
    const writesAfter = await tables();
    console.log(
      `  rows written per request: ${[...writesAfter.entries()]
        .map(([t, w]) => [t, (w - (writesBefore.get(t) ?? 0)) / n] as const)
        .filter(([, w]) => w >= 0.05)
        .sort((a, b) => b[1] - a[1])
        .map(([t, w]) => `${t} ${w.toFixed(2)}`)
        .join(', ')}`,
    );
    for (const [l, k] of [...lockWaits.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5))
      console.log(`  lock wait ${((k / samples) * 100).toFixed(0)}% of samples: ${l}`);
    return result.requests.average;
  };
  // BENCH_COLD=1 measures the first row cold (the app's first confirmations load MJML).
  if (!process.env.BENCH_COLD) {
    await warmUp(database, appBase, one);
    await warmUp(database, appBase, many);
  }
  console.log(
    `checkout stage, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    await database.pool.query('select pg_stat_statements_reset()');
    const b = await measure('bare POST: one raw INSERT', bare.pid!, {
      url: `http://127.0.0.1:${barePort}/insert`,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (r) => ({ ...r, body: JSON.stringify(slots[nextBare++ % slots.length]) }),
        },
      ],
    });
    // BENCH_MANY_FIRST=1 swaps the two checkout rows (to tell an order effect from theirs).
    const manyFirst = Boolean(process.env.BENCH_MANY_FIRST);
    const runMany = () =>
      measure(`checkout, ${CUSTOMERS} customers`, app.pid!, processLoad(appBase, many));
    const runOne = () => measure('checkout, one customer', app.pid!, processLoad(appBase, one));
    const cn0 = manyFirst ? await runMany() : 0;
    const c1 = await runOne();
    const cn = manyFirst ? cn0 : await runMany();
    console.log(
      `  checkout: ${((c1 / b) * 100).toFixed(1)}% (one customer), ${((cn / b) * 100).toFixed(1)}% (${CUSTOMERS} customers) of the bare route`,
    );
  }
  const stats = await database.pool.query(
    `select calls, round((total_plan_time / calls)::numeric, 3) as plan_ms,
            round((total_exec_time / calls)::numeric, 3) as exec_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
     from pg_stat_statements where calls > 100 order by total_exec_time + total_plan_time desc limit 12`,
  );
  console.table(stats.rows);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (process.env.BENCH_KEEP) {
    console.log(`database: ${url}  (Enter stops)`);
    await new Promise((r) => process.stdin.once('data', r));
  }
  await database.close();
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  for (const c of children) c.kill('SIGTERM');
  process.exit(1);
});
