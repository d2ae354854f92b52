import type { ReadyBody } from '@paddock/contract/health';
import { newestMigration, type Database } from '../../db/client';
import type { ChangeFeed } from '../../plugins/changes';
import type { Draining } from '../../lib/draining';

/** A readiness probe gives the database this long before calling it down (a full pool, a hang). */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether this instance can serve: one small query (the database answers, and its newest applied
 * migration is this build's newest) and the change feed's state. Probes asked for while one is
 * on the wire share it, so a load balancer asking every second, or many at once, costs at most
 * one query in flight.
 */
export class Readiness {
  private readonly newest = newestMigration();
  private probing: Promise<ReadyBody> | null = null;

  constructor(
    private readonly database: Database,
    private readonly changes: ChangeFeed,
    private readonly draining?: Draining,
  ) {}

  check(): Promise<ReadyBody> {
    // Shutting down: whatever the parts say, send traffic elsewhere (decision 0080).
    if (this.draining?.started)
      return Promise.resolve({
        status: 'not_ready',
        detail: 'Not ready: shutting down.',
        checks: { database: 'ok', migrations: 'ok', changes: 'ok' },
      });
    return (this.probing ??= this.probe().finally(() => (this.probing = null)));
  }

  private async probe(): Promise<ReadyBody> {
    let database: 'ok' | 'down' = 'down';
    let migrations: 'ok' | 'down' = 'down';
    let timer: NodeJS.Timeout | undefined;
    try {
      const query = this.database.pool.query<{ current: boolean }>(
        `select coalesce(max(created_at), 0) >= $1 as current from drizzle.__drizzle_migrations`,
        [this.newest],
      );
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('readiness probe timed out')), PROBE_TIMEOUT_MS);
      });
      // A late answer (or failure) of an abandoned query is nobody's.
      query.catch(() => {});
      const { rows } = await Promise.race([query, timeout]);
      database = 'ok';
      if (rows[0]?.current) migrations = 'ok';
    } catch (error) {
      // No migrations table at all: the database answers, nothing is migrated.
      if ((error as { code?: string }).code === '42P01') database = 'ok';
    } finally {
      clearTimeout(timer);
    }
    const changes = this.changes.connected ? 'ok' : 'down';
    const checks = { database, migrations, changes } as const;
    const failed = Object.entries(checks)
      .filter(([, state]) => state === 'down')
      .map(([part]) => part);
    if (failed.length === 0) return { status: 'ready', checks };
    return { status: 'not_ready', detail: `Not ready: ${failed.join(', ')}.`, checks };
  }
}
