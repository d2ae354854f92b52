// What the busy PostgreSQL backends of the bench's database wait on while a row runs, and which
// locks they wait for (decision 0062): sampled every 20 ms; CPU when a backend has no wait event.
import type { Database } from '../src/db/client';

export function sampleWaits(database: Database): { stop: () => Promise<string> } {
  const waits = new Map<string, number>();
  const locks = new Map<string, number>();
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await database.pool.query<{ w: string; lock: string | null }>(
        `select coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU') as w,
           (select l.locktype || ' ' || coalesce(l.relation::regclass::text, '') || ' ' || l.mode
            from pg_locks l where l.pid = a.pid and not l.granted limit 1) as lock
         from pg_stat_activity a
         where a.state = 'active' and a.pid <> pg_backend_pid() and a.datname = current_database()`,
      );
      samples++;
      for (const r of rows) {
        waits.set(r.w, (waits.get(r.w) ?? 0) + 1);
        if (r.lock) locks.set(r.lock, (locks.get(r.lock) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    stop: async () => {
      sampling = false;
      await sampler;
      const all = [...waits.values()].reduce((a, b) => a + b, 0);
      const top = (m: Map<string, number>, of: number) =>
        [...m.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([w, n]) => `${w} ${((n / of) * 100).toFixed(0)}%`)
          .join(', ');
      return `busy backends ${(all / Math.max(samples, 1)).toFixed(1)} on average, by wait: ${top(waits, all)}${
        locks.size ? `; waiting for a lock in % of samples: ${top(locks, samples)}` : ''
      }`;
    },
  };
}
