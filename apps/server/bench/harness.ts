// The one bench harness (`npm run bench`'s run.ts and the stage harnesses booking-stage.ts,
// checkout-stage.ts): the knobs, a scratch directory, the embedded PostgreSQL, the app instances
// and the bare route, the bench venue, CPU and memory read from /proc, a stage row measured under
// autocannon, and the tables printed at the end. Each bench file keeps only what it measures.
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { connect, ensureDatabase, runMigrations, type Database } from '../src/db/client';
import { Tokens } from '../src/plugins/auth';
import { createUser } from '../src/test/factories';
import { createCalendarType, createLocation, createSeat } from '../src/test/booking-factories';
import { DateTime } from 'luxon';
import { sampleBackends, topShares, type LockSampling } from './pg-waits';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../../..');
export const tsx = path.join(root, 'node_modules/.bin/tsx');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
export const CONNECTIONS = 32;
// BENCH_PORT_BASE moves the ports the bench listens on: apps and bare route (n … n+2), the web
// bench's npm start (n+3, n+4), the bare board routes (n+6, n+7).
export const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 4311);
export const SECRET = 'bench-secret-bench-secret-bench-secret-0001';
export const TICK_MS = 1000 / 100; // USER_HZ

/** A scratch directory every child process may write to. */
export function scratchDir(prefix: string): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(tmp, 0o777);
  return tmp;
}

export async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** CPU ticks (user + system) of `pid` and every descendant still alive. */
export function cpuTicks(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += Number(fields[11]) + Number(fields[12]);
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        for (const kid of kids ? kids.split(/\s+/) : []) visit(Number(kid));
      }
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return total;
}

/** Resident memory (MB) of the largest process under `pid` (tsx runs the app as its child). */
export function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const sizes: number[] = [];
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      sizes.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      const kids = fs.readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim();
      for (const kid of kids ? kids.split(/\s+/) : []) visit(Number(kid));
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return Math.max(0, ...sizes);
}

/** Every process the bench started: stopped at the end, or when it fails. */
export const children: ChildProcess[] = [];

/** SIGTERM, not SIGKILL: tsx passes it on to the app it runs; a killed tsx would orphan it. */
export function stopChildren() {
  for (const c of children) c.kill('SIGTERM');
}

// The app instances run as a venue runs them (`npm start`, decision 0035): the compiled server
// (built here when a source changed) under node with source maps. BENCH_SERVER=tsx runs the
// TypeScript sources under tsx instead, as the bench did before decision 0049.
export const underTsx = process.env.BENCH_SERVER === 'tsx';
let built = false;

/** Builds the server once (when a source changed), so that no start below waits for esbuild. */
export function buildServer() {
  if (underTsx || built) return;
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  built = true;
}

/**
 * An app instance on `port` over `databaseUrl`, its data in `tmp`; resolves with its process once
 * it answers. BENCH_PROFILE=dir writes a CPU profile of each instance there (open in Chrome
 * DevTools); BENCH_NODE_FLAGS="--a --b" adds node flags to try; BENCH_LOG_LEVEL=error shows what
 * the instances log, BENCH_APP_STDERR=1 only their standard error.
 */
export async function startApp(databaseUrl: string, port: number, tmp: string) {
  buildServer();
  const main = path.join(root, underTsx ? 'apps/server/src/main.ts' : 'apps/server/dist/main.js');
  const profile = process.env.BENCH_PROFILE;
  // node's flags as `npm start` passes them (apps/server/node-flags.json).
  const flags = JSON.parse(
    fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'),
  ) as string[];
  const tried = [
    ...flags.filter((f) => f !== '--enable-source-maps'),
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const loader = [...tried, ...(underTsx ? ['--import', 'tsx'] : ['--enable-source-maps'])];
  const [cmd, args] = profile
    ? [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`, ...loader, main]]
    : underTsx
      ? [tsx, [...tried, main]]
      : [process.execPath, [...loader, main]];
  const child = spawn(cmd, args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      DATA_DIR: path.join(tmp, `data-${port}`),
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    },
    stdio: process.env.BENCH_LOG_LEVEL
      ? ['ignore', 'inherit', 'inherit']
      : ['ignore', 'ignore', process.env.BENCH_APP_STDERR ? 'inherit' : 'ignore'],
  });
  children.push(child);
  await waitFor(`http://127.0.0.1:${port}/api/openapi.json`);
  return child;
}

/**
 * The bare route (bare-server.ts) on `port`: GET /avail and /parallel answer the JSON files
 * given, POST /insert does one raw INSERT. Resolves with its process once it answers.
 */
export async function startBareServer(opts: {
  port: number;
  databaseUrl: string;
  availJson: string;
  parallelJson: string;
}) {
  const bare = spawn(tsx, [path.join(here, 'bare-server.ts')], {
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATABASE_URL: opts.databaseUrl,
      AVAIL_JSON: opts.availJson,
      PARALLEL_JSON: opts.parallelJson,
    },
    stdio: 'ignore',
  });
  children.push(bare);
  await waitFor(`http://127.0.0.1:${opts.port}/avail`);
  return bare;
}

/**
 * The bench venue: a 20-seat location open around the clock, in UTC so every local slot is easy
 * to name, a customer, and a desk staff member (a customer may hold only a few unpaid bookings,
 * 0014: the booking rows book for one as staff).
 */
export async function benchVenue(database: Database) {
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
  return { ctx, location, type, seats, customer, deskStaff, deskAuth };
}

/** Every seat's half-hours of the next two months: a distinct seat-slot for each booking. */
export function bookingSlots(seats: { id: number }[]) {
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
  return slots;
}

/** POSTs of the next body of `bodies` (round and round) to the bare route's raw INSERT. */
export function bareInsertRequests(bodies: unknown[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (r) => ({ ...r, body: JSON.stringify(bodies[next++ % bodies.length]) }),
    },
  ];
}

/** One row of the bench's tables: `opts` under autocannon (CONNECTIONS, SECONDS unless told). */
export async function load(title: string, opts: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return {
    title,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

export type Row = Awaited<ReturnType<typeof load>>;
export const formatRow = (r: Row) =>
  `${r.title.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  non-2xx ${r.errors}`;

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/**
 * An embedded PostgreSQL in `tmp`, a migrated `bench` database and the bare route's
 * `bench_inserts` table; `postmaster` is its pid, for cpuTicks. The stage harnesses load
 * pg_stat_statements too (`statements`, the default); `npm run bench` runs without it.
 */
export async function stageDatabase(tmp: string, { statements = true } = {}) {
  // `npm run bench` on a database of one's own (issue 33: the server rows on a copy of the full
  // chain, restored with `npm run restore`): its tables get the bench venue's rows, so never the
  // only copy of anything. The stage harnesses read PostgreSQL's CPU from the embedded server.
  const external = process.env.BENCH_DATABASE_URL;
  if (external && !statements) {
    const database = connect(external, 4);
    await runMigrations(database);
    await database.pool.query(
      'create table if not exists bench_inserts (id serial primary key, calendar int, slot text)',
    );
    return { server: undefined, postmaster: 0, url: external, database };
  }
  const dataDir = path.join(tmp, 'pg');
  let server = await startEmbeddedPostgres({ dataDir });
  if (statements) {
    const admin = connect(server.url('postgres'), 1);
    await admin.pool.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
    await admin.pool.query(`alter system set pg_stat_statements.track = 'all'`);
    await admin.pool.query(`alter system set pg_stat_statements.track_planning = on`);
    await admin.close();
    await server.stop();
    server = await startEmbeddedPostgres({ dataDir });
  }
  const postmaster = Number(
    fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  await ensureDatabase(server.url('postgres'), 'bench');
  const url = server.url('bench');
  const database = connect(url, 4);
  await runMigrations(database);
  if (statements) await database.pool.query('create extension if not exists pg_stat_statements');
  await database.pool.query(
    'create table bench_inserts (id serial primary key, calendar int, slot text)',
  );
  return { server, postmaster, url, database };
}

/**
 * A stage harness's set-up: its database (with pg_stat_statements), the app on PORT_BASE and the
 * bare route on PORT_BASE + 2 (its GETs answer `{}`: the stages only POST to it).
 */
export async function startStage(tmp: string) {
  const db = await stageDatabase(tmp);
  const [appPort, barePort] = [PORT_BASE, PORT_BASE + 2];
  const app = await startApp(db.url, appPort, tmp);
  const empty = path.join(tmp, 'x.json');
  fs.writeFileSync(empty, '{}');
  const bare = await startBareServer({
    port: barePort,
    databaseUrl: db.url,
    availJson: empty,
    parallelJson: empty,
  });
  return { ...db, app, bare, appPort, barePort };
}

/**
 * One stage row: `opts` under autocannon (CONNECTIONS, SECONDS) against the process `pid`, then
 * its line (req/s, p99, CPU per request of PostgreSQL, of the process and of this load
 * generator), the WAL per request and what the busy backends waited on. `count` gives the
 * requests' real number when it is not autocannon's (a checkout counts once it is paid);
 * `rowsWritten` adds the rows written per request by table; `lockWaits` the locks waited for.
 * Returns the requests per second.
 */
export async function measureStage(opts: {
  database: Database;
  postmaster: number;
  title: string;
  pid: number;
  load: autocannon.Options;
  lockSampling?: LockSampling;
  rowsWritten?: boolean;
  count?: () => Promise<{ done: () => Promise<number> }>;
}) {
  const { database, postmaster, pid } = opts;
  const before = [cpuTicks(postmaster), cpuTicks(pid), process.cpuUsage()] as const;
  const walOf = async () =>
    (
      await database.pool.query<{ b: string; f: string }>(
        `select wal_bytes::text as b, wal_fpi::text as f from pg_stat_wal`,
      )
    ).rows[0];
  const wal = await walOf();
  const sampler = sampleBackends(database, opts.lockSampling ?? 'none');
  const tables = async () =>
    new Map(
      (
        await database.pool.query<{ t: string; w: string }>(
          `select relname as t, (n_tup_ins + n_tup_upd + n_tup_del)::text as w
           from pg_stat_user_tables`,
        )
      ).rows.map((r) => [r.t, Number(r.w)]),
    );
  const writesBefore = opts.rowsWritten ? await tables() : new Map<string, number>();
  const counter = await opts.count?.();
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts.load });
  const { waits, locks, samples } = await sampler.stop();
  const counted = counter ? await counter.done() : 0;
  const used = process.cpuUsage(before[2]);
  const n = counted > 0 ? counted : result.requests.total;
  const perReq = (ticks: number) => ((ticks * TICK_MS) / n).toFixed(2);
  console.log(
    `${opts.title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p99 ${String(result.latency.p99).padStart(4)} ms  non-2xx ${result.non2xx + result.errors}  CPU ms/request: PostgreSQL ${perReq(cpuTicks(postmaster) - before[0])}, server ${perReq(cpuTicks(pid) - before[1])}, load ${((used.user + used.system) / 1000 / n).toFixed(2)}`,
  );
  const all = [...waits.values()].reduce((a, b) => a + b, 0);
  const walNow = await walOf();
  console.log(
    `  WAL per request: ${((Number(walNow.b) - Number(wal.b)) / n).toFixed(0)} B, ${((Number(walNow.f) - Number(wal.f)) / n).toFixed(2)} full-page images; active backends ${(all / samples).toFixed(1)} on average, by wait: ${topShares(waits, all, 6)}`,
  );
  if (opts.rowsWritten) {
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
  }
  for (const [l, k] of [...locks.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5))
    console.log(`  lock wait ${((k / samples) * 100).toFixed(0)}% of samples: ${l}`);
  return result.requests.average;
}

/** The statements that took the most time (pg_stat_statements), as a table. */
export async function printStatements(database: Database) {
  const stats = await database.pool.query(
    `select calls, round((total_plan_time / calls)::numeric, 3) as plan_ms,
            round((total_exec_time / calls)::numeric, 3) as exec_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
     from pg_stat_statements where calls > 100 order by total_exec_time + total_plan_time desc limit 12`,
  );
  console.table(stats.rows);
}

/**
 * The end of a run: BENCH_KEEP=1 prints the database URL and waits for Enter (to EXPLAIN on it);
 * then the database, the processes, PostgreSQL and the scratch directory go.
 */
export async function stopBench(opts: {
  database: Database;
  server: { stop: () => Promise<void> } | null | undefined;
  url: string;
  tmp: string;
}) {
  if (process.env.BENCH_KEEP) {
    console.log(`database: ${opts.url}  (Enter stops)`);
    await new Promise((r) => process.stdin.once('data', r));
  }
  await opts.database.close();
  stopChildren();
  await new Promise((r) => setTimeout(r, 1500));
  await opts.server?.stop();
  fs.rmSync(opts.tmp, { recursive: true, force: true });
}

/** Runs a bench's main; on failure stops what it started and exits with 1. */
export function runBench(main: () => Promise<void>) {
  main().catch((e) => {
    console.error(e);
    stopChildren();
    process.exit(1);
  });
}
