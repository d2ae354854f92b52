import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema } from './schema';
import { attachEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedServer } from './embedded';

export type Db = NodePgDatabase<typeof schema>;
export type Database = { db: Db; pool: pg.Pool; url: string; close: () => Promise<void> };

export const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

// Return timestamps and dates as text where the API passes them through unchanged.
pg.types.setTypeParser(1082, (v) => v); // date

export function connect(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    /* idle client errors (server restart) are retried by the pool */
  });
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { db, pool, url, close: () => pool.end() };
}

export async function runMigrations(database: Database) {
  await migrate(database.db, { migrationsFolder: MIGRATIONS });
}

export async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
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
