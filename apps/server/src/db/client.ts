import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { buildConcurrentIndexes, dropRetiredIndexes } from './concurrent-indexes';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from './schema';
import { attachEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedServer } from './embedded';

export type Db = NodePgDatabase<typeof schema>;
export type Database = { db: Db; pool: pg.Pool; url: string; close: () => Promise<void> };

export const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// Return timestamps and dates as text where the API passes them through unchanged.
pg.types.setTypeParser(1082, (v) => v); // date

/**
 * How long a request waits for a pool connection: a database that is away, or a pool that stays
 * full, answers 503 after this rather than holding the request (plugins/errors.ts).
 */
export const CONNECT_WAIT_MS = 5000;

/**
 * A pool whose checked-out clients give their slot back when their connection dies. drizzle's
 * `transaction()` sends `begin` outside its try/finally, so a connection lost between the
 * checkout and `begin` (a restart, a terminated backend) was never released: each blip took a
 * slot for good until the pool was empty, every request answered 503 and `pool.end()` hung.
 * A lost connection now releases its client with the error (the pool drops it); the holder's own
 * later `release()` is then a no-op rather than a double release.
 */
class ReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: () => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    // pool.query checks out with a callback and releases on every path itself.
    if (callback) return super.connect(callback);
    return super.connect().then(releasedWhenLost);
  }
}

function releasedWhenLost(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  const lost = () => finish(new Error('Connection terminated unexpectedly'));
  function finish(err?: Error | boolean) {
    if (released) return;
    released = true;
    client.off('error', lost);
    client.off('end', lost);
    release(err);
  }
  client.once('error', lost);
  client.once('end', lost);
  client.release = finish;
  return client;
}

export function connect(url: string, max = 10): Database {
  const pool = new ReleasingPool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECT_WAIT_MS,
    // A peer that vanished without closing (a failover, a cut network) is noticed in time.
    keepAlive: true,
  });
  pool.on('error', () => {
    /* an idle client's connection died: the pool drops it and opens another when asked */
  });
  // A client checked out (pool.connect: drizzle's transactions) emits 'error' on itself when its
  // connection dies between two queries, and nobody listens then: Node would end the process
  // (issue 27). Its next query fails instead (a 503), and the pool drops it on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { db, pool, url, close: () => pool.end() };
}

/**
 * The time stamp of the newest migration this build carries (drizzle-kit's journal): the
 * database is up to date when its newest applied migration is at least as new.
 */
export function newestMigration(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'),
  ) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/** The advisory lock that makes instances starting together migrate one after the other. */
export const MIGRATION_LOCK = 7_270_071;
/** Taken (never waited for) by the instance building the concurrent indexes (decision 0092). */
export const CONCURRENT_INDEX_LOCK = 7_270_072;

/**
 * Applies the migrations not yet applied, under a session advisory lock on a connection of its
 * own: a second instance starting at the same moment waits, then finds nothing left to apply.
 * drizzle's migrator alone would let both read the journal and apply the same migration twice.
 */
export async function runMigrations(database: Database) {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client, { schema, casing: 'snake_case' }), {
        migrationsFolder: MIGRATIONS,
      });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
    // After the lock is let go: CREATE INDEX CONCURRENTLY waits for every other transaction,
    // including an instance's `pg_advisory_lock` waiting on this one (a deadlock). The build
    // takes its own lock without waiting; an instance that finds it taken goes on without.
    const { rows } = await client.query<{ got: boolean }>(
      'select pg_try_advisory_lock($1) as got',
      [CONCURRENT_INDEX_LOCK],
    );
    if (rows[0].got)
      try {
        await buildConcurrentIndexes(client);
        await dropRetiredIndexes(client);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [CONCURRENT_INDEX_LOCK]);
      }
  } finally {
    client.release();
  }
}

export async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({
    connectionString: adminUrl,
    connectionTimeoutMillis: CONNECT_WAIT_MS,
  });
  // A connection lost between queries fails the next query, not the process.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * Opens the configured database: DATABASE_URL, or the embedded server under dataDir.
 * `migrate: false` leaves the schema as it is (backup and restore); `attach` joins an embedded
 * server that a running Paddock started instead of stopping it as stale.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  log?: (msg: string) => void;
  migrate?: boolean;
  attach?: boolean;
}): Promise<Database & { embedded?: EmbeddedServer }> {
  const migrate = opts.migrate ?? true;
  if (opts.databaseUrl) {
    const database = connect(opts.databaseUrl, 20);
    if (migrate) await runMigrations(database);
    return database;
  }
  const pgDir = path.join(opts.dataDir, 'pg');
  const embedded =
    (opts.attach ? await attachEmbeddedPostgres(pgDir) : null) ??
    (await startEmbeddedPostgres({ dataDir: pgDir, log: opts.log }));
  if (process.env.START_TIMING)
    console.log(`[start] ${performance.now().toFixed(0)} ms embedded PostgreSQL started`);
  await ensureDatabase(embedded.url('postgres'), 'paddock');
  const database = connect(embedded.url('paddock'), 20);
  if (migrate) await runMigrations(database);
  return {
    ...database,
    embedded,
    close: async () => {
      await database.close();
      await embedded.stop();
    },
  };
}
