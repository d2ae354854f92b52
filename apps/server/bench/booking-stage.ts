// The booking stage of `npm run bench` alone (decision 0060): the bare raw INSERT and
// POST /api/reservations (staff books a seat) in alternating rounds, with the CPU each process
// group used per request read from /proc, and pg_stat_statements' timing of the statements the
// booking runs. Not part of `npm test`. `npx tsx apps/server/bench/booking-stage.ts`; knobs:
// BENCH_PORT_BASE, BENCH_SECONDS (8), BENCH_ROUNDS (2), BENCH_KEEP=1 (print the database URL and
// wait for Enter before stopping, to EXPLAIN on it).
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { Tokens } from '../src/plugins/auth';
import { createUser } from '../src/test/factories';
import { createCalendarType, createLocation, createSeat } from '../src/test/booking-factories';
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

const children: ChildProcess[] = [];
const tmp = scratchDir('paddock-booking-bench-');

async function main() {
  const { server, postmaster, url, database } = await stageDatabase(tmp);
  const ctx = { db: database.db, deps: { tokens: new Tokens(SECRET, 3600) } };
  const location = await createLocation(ctx, { name: 'Bench Arena', timezone: 'UTC' });
  const type = await createCalendarType(ctx, { name: 'Pro Cockpit' });
  const seats: Awaited<ReturnType<typeof createSeat>>[] = [];
  for (let i = 0; i < 20; i++)
    seats.push(
      await createSeat(ctx, { locationId: location.id, typeId: type.id, costCents: 2500 }),
    );
  const customer = await createUser(ctx);
  const deskStaff = await createUser(ctx, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
  const deskAuth = {
    authorization: `Bearer ${deskStaff.token}`,
    'content-type': 'application/json',
  };

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
  for (let d = 1; d < 55; d++) {
    const day = DateTime.utc().startOf('day').plus({ days: d });
    for (let m = 0; m < 24 * 60; m += 30)
      for (const seat of seats)
        slots.push({
          calendar: seat.id,
          slot: day.plus({ minutes: m }).toFormat("yyyy-MM-dd'T'HH:mm"),
        });
  }
  let next = 0;
  let nextBare = 0;
  const measure = async (title: string, pid: number, opts: autocannon.Options) => {
    const before = [cpuTicks(postmaster), cpuTicks(pid), process.cpuUsage()] as const;
    // What the busy backends wait on, sampled every 20 ms (CPU when no wait event).
    const waits = new Map<string, number>();
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
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
    sampling = false;
    await sampler;
    const used = process.cpuUsage(before[2]);
    const n = result.requests.total;
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
    return result.requests.average;
  };
  console.log(
    `booking stage, ${os.cpus().length} cores, load average ${os
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
    const r = await measure('POST /reservations', app.pid!, {
      url: `http://127.0.0.1:${appPort}`,
      requests: [
        {
          method: 'POST',
          path: '/api/reservations',
          headers: deskAuth,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ ...slots[next++ % slots.length], user: customer.id }),
          }),
        },
      ],
    });
    console.log(`  booking: ${((r / b) * 100).toFixed(0)}% of the bare route`);
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
