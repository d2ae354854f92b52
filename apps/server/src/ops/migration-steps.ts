import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { MIGRATIONS, type Database } from '../db/client';

/** The hashes drizzle records for this build's migrations, oldest first. */
export function knownMigrations(folder = MIGRATIONS): string[] {
  return readMigrationFiles({ migrationsFolder: folder }).map((m) => m.hash);
}

/**
 * Applies only the first `count` migrations (to load a backup into the schema it was taken
 * from, before migrating forward): drizzle applies a folder whole, so it gets a copy whose
 * journal lists just those.
 */
export async function migrateTo(database: Database, count: number, folder = MIGRATIONS) {
  const journal = JSON.parse(await fs.readFile(path.join(folder, 'meta/_journal.json'), 'utf8'));
  const entries = (journal.entries as { tag: string }[]).slice(0, count);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-migrations-'));
  try {
    await fs.mkdir(path.join(dir, 'meta'));
    await fs.writeFile(
      path.join(dir, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries }),
    );
    for (const entry of entries)
      await fs.copyFile(path.join(folder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
    await migrate(database.db, { migrationsFolder: dir });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
