// What the busy PostgreSQL backends of the bench's database wait on while a row runs, and which
// locks they wait for (decisions 0060, 0062): sampled every 20 ms; CPU when a backend has no wait
// event. One sampler for every bench file; each prints what it needs of the counts.
import type { Database } from '../src/db/client';

/**
 * Which lock waits are counted: none; the first lock each waiting backend wants
 * ('per-backend'); or every ungranted lock with the start of the statement that wants it
 * ('with-statement', what the stage harnesses print).
 */
export type LockSampling = 'none' | 'per-backend' | 'with-statement';

export type WaitCounts = {
  waits: Map<string, number>;
  locks: Map<string, number>;
  samples: number;
};

const BACKENDS_PER_BACKEND_LOCK = `select coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') as w,
   (select l.locktype || ' ' || coalesce(l.relation::regclass::text, '') || ' ' || l.mode
    from pg_locks l where l.pid = a.pid and not l.granted limit 1) as lock
 from pg_stat_activity a
 where a.state = 'active' and a.pid <> pg_backend_pid() and a.datname = current_database()`;

const BACKENDS = `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as w, null as lock
 from pg_stat_activity
 where state = 'active' and pid <> pg_backend_pid() and datname = current_database()`;

const LOCKS_WITH_STATEMENT = `select l.locktype || ' ' || coalesce(l.relation::regclass::text, '') || ' ' || l.mode
   || ' <- ' || left(regexp_replace(a.query, '\\s+', ' ', 'g'), 60) as l
 from pg_locks l join pg_stat_activity a on a.pid = l.pid
 where not l.granted and a.datname = current_database()`;

/** Samples until `stop`, which gives the counts. */
export function sampleBackends(
  database: Database,
  lockSampling: LockSampling,
): { stop: () => Promise<WaitCounts> } {
  const counts: WaitCounts = { waits: new Map(), locks: new Map(), samples: 0 };
  const add = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await database.pool.query<{ w: string; lock: string | null }>(
        lockSampling === 'per-backend' ? BACKENDS_PER_BACKEND_LOCK : BACKENDS,
      );
      counts.samples++;
      for (const r of rows) {
        add(counts.waits, r.w);
        if (r.lock) add(counts.locks, r.lock);
      }
      if (lockSampling === 'with-statement')
        for (const r of (await database.pool.query<{ l: string }>(LOCKS_WITH_STATEMENT)).rows)
          add(counts.locks, r.l);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    stop: async () => {
      sampling = false;
      await sampler;
      return counts;
    },
  };
}

/** The `top` largest counts of `m` as "key n%" of `of`, largest first. */
export function topShares(m: Map<string, number>, of: number, top: number): string {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([w, n]) => `${w} ${((n / of) * 100).toFixed(0)}%`)
    .join(', ');
}

/** The waits of the busy backends and, per-backend, their lock waits, in one line. */
export function sampleWaits(database: Database): { stop: () => Promise<string> } {
  const sampler = sampleBackends(database, 'per-backend');
  return {
    stop: async () => {
      const { waits, locks, samples } = await sampler.stop();
      const all = [...waits.values()].reduce((a, b) => a + b, 0);
      return `busy backends ${(all / Math.max(samples, 1)).toFixed(1)} on average, by wait: ${topShares(waits, all, 5)}${
        locks.size ? `; waiting for a lock in % of samples: ${topShares(locks, samples, 5)}` : ''
      }`;
    },
  };
}
