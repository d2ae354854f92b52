import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pg from 'pg';
import { connect, MIGRATION_LOCK, newestMigration, runMigrations } from './client';
import { databaseUrl } from '../test/database-url';

// Issue 29: two instances starting at once against an empty database migrate it once; the
// second waits for the first (an advisory lock), then finds nothing left to apply.

describe('two instances migrating an empty database at once', () => {
  it('one migrates, the other waits on the lock, and every migration is applied once', async () => {
    const adminUrl = inject('dbAdminUrl');
    const name = `paddock_race_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const first = connect(databaseUrl(adminUrl, name), 2);
    const second = connect(databaseUrl(adminUrl, name), 2);
    try {
      let waiting = 0;
      let polling = true;
      const watch = (async () => {
        while (polling) {
          const { rows } = await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_locks
             where locktype = 'advisory' and objid = $1 and not granted`,
            [MIGRATION_LOCK],
          );
          waiting = Math.max(waiting, rows[0].n);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all([runMigrations(first), runMigrations(second)]);
      polling = false;
      await watch;
      expect(waiting).toBe(1);
      const { rows } = await first.pool.query<{ n: number; newest: string }>(
        'select count(*)::int as n, max(created_at) as newest from drizzle.__drizzle_migrations',
      );
      expect(Number(rows[0].newest)).toBe(newestMigration());
      const { rows: hashes } = await first.pool.query<{ n: number }>(
        'select count(distinct hash)::int as n from drizzle.__drizzle_migrations',
      );
      expect(hashes[0].n).toBe(rows[0].n);
    } finally {
      await first.close();
      await second.close();
      await admin.query(`drop database "${name}" with (force)`);
      await admin.end();
    }
  });
});
