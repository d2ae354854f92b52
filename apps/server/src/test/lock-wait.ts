import type pg from 'pg';

/** Resolves once backend `pid` waits for a lock (a commit held inside its trigger, say). */
export async function untilWaitingOnLock(admin: pg.Client, pid: number) {
  for (let i = 0; ; i++) {
    const { rows } = await admin.query<{ wait_event_type: string | null }>(
      `select wait_event_type from pg_stat_activity where pid = $1`,
      [pid],
    );
    if (rows[0]?.wait_event_type === 'Lock') return;
    if (i > 200) throw new Error(`backend ${pid} never waited for a lock`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
