// What the stage harnesses (booking-stage.ts, checkout-stage.ts) share: their knobs, a scratch
// directory, an embedded PostgreSQL with pg_stat_statements, and CPU read from /proc.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { connect, ensureDatabase, runMigrations } from '../src/db/client';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../../..');
export const tsx = path.join(root, 'node_modules/.bin/tsx');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
export const CONNECTIONS = 32;
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

/**
 * An embedded PostgreSQL in `tmp` with pg_stat_statements loaded, a migrated `bench` database and
 * the bare route's `bench_inserts` table; `postmaster` is its pid, for cpuTicks.
 */
export async function stageDatabase(tmp: string) {
  const dataDir = path.join(tmp, 'pg');
  let server = await startEmbeddedPostgres({ dataDir });
  {
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
  await database.pool.query('create extension if not exists pg_stat_statements');
  await database.pool.query(
    'create table bench_inserts (id serial primary key, calendar int, slot text)',
  );
  return { server, postmaster, url, database };
}
