// The chain benchmark (issue 33, decision 0092; BENCH_ONLY=chain npm run bench): a chain of
// fifty venues five years in (src/seed/chain.ts) at SEED_CHAIN_SCALE, seeded once into a
// persistent embedded PostgreSQL (BENCH_CHAIN_DIR, or BENCH_CHAIN_URL) and reused; then the
// issue's table of single-user warm p99s over 50 calls against the compiled server, and how long
// that server takes to start on the chain.
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded';
import { connect, ensureDatabase, runMigrations, type Database } from '../src/db/client';
import { Tokens } from '../src/plugins/auth';
import { chainPlan, seedChain } from '../src/seed/chain';

export const CHAIN_CALLS = 50;
const here = path.dirname(fileURLToPath(import.meta.url));

/** The chain's database: reused when a chain of this scale is there, else seeded now. */
export async function chainDatabase(opts: { root: string; scale: number; today: string }) {
  let server: EmbeddedServer | undefined;
  let url = process.env.BENCH_CHAIN_URL;
  if (!url) {
    const dir =
      process.env.BENCH_CHAIN_DIR ?? path.join(os.tmpdir(), `paddock-chain-${opts.scale}`);
    server = await startEmbeddedPostgres({ dataDir: dir });
    await ensureDatabase(server.url('postgres'), 'chain');
    url = server.url('chain');
  }
  const database = connect(url, 4);
  await runMigrations(database);
  const { rows } = await database.pool.query<{ note: string | null }>(
    `select obj_description('users'::regclass) as note`,
  );
  const marker = `seed:chain scale ${opts.scale}`;
  let seeded: string;
  if (!rows[0].note?.startsWith(marker)) {
    const started = performance.now();
    const counts = await seedChain(database.pool, chainPlan(opts.scale, opts.today), (line) =>
      console.log(`  ${line}`),
    );
    const secs = ((performance.now() - started) / 1000).toFixed(0);
    await database.pool.query(`comment on table users is '${marker} ${opts.today}'`);
    seeded = `seeded in ${secs} s (${Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')})`;
  } else seeded = `reused (${rows[0].note})`;
  return { database, url, server, seeded };
}

/**
 * The calls are sent by a process of their own (bench/sequential-client.mjs), not from here: a
 * collection of this process's heap in the middle of a call was counted as the server's time
 * (decision 0111).
 */
class SequentialClient {
  private readonly child = spawn(process.execPath, [path.join(here, 'sequential-client.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  private readonly reader = readline.createInterface({ input: this.child.stdout! });
  private readonly lines = this.reader[Symbol.asyncIterator]();

  private async answer() {
    const { value, done } = await this.lines.next();
    if (done) throw new Error('the bench client stopped');
    return JSON.parse(value as string) as { before?: number; times: number[]; failed: number };
  }

  /**
   * p99 and p50 of `n` sequential calls of `urlFor(i)`, after a warm-up of ten calls of other
   * arguments; `before` runs ahead of each timed call, untimed.
   */
  async p99(
    urlFor: (i: number) => string,
    headers: Record<string, string>,
    before?: () => Promise<unknown>,
    n = CHAIN_CALLS,
  ): Promise<{ p99: number; p50: number; failed: number }> {
    const urls = Array.from({ length: 10 }, (_, i) => urlFor(n + i));
    for (let i = 0; i < n; i++) urls.push(urlFor(i));
    this.child.stdin!.write(`${JSON.stringify({ urls, headers, warmup: 10, pause: !!before })}\n`);
    let reply = await this.answer();
    while (reply.before !== undefined) {
      await before!();
      this.child.stdin!.write('go\n');
      reply = await this.answer();
    }
    const times = reply.times.sort((a, b) => a - b);
    return {
      p99: times[Math.ceil(0.99 * times.length) - 1],
      p50: times[Math.ceil(0.5 * times.length) - 1],
      failed: reply.failed,
    };
  }

  close() {
    this.child.stdin!.end();
  }
}

type Target = {
  label: string;
  budget: number;
  calls: {
    name: string;
    url: (i: number) => string;
    headers: Record<string, string>;
    before?: () => Promise<unknown>;
    /** Shown, but not what the row's budget is judged by (a cost paid once per import). */
    aside?: true;
  }[];
};

export async function chainBenchmark(opts: {
  database: Database;
  appBase: string;
  secret: string;
  today: string;
}): Promise<string[]> {
  const q = async <T>(text: string, params: unknown[] = []) =>
    (await opts.database.pool.query(text, params)).rows as T[];
  const tokens = new Tokens(opts.secret, 3600);
  const bearer = async (id: number) => ({ authorization: `Bearer ${await tokens.sign(id, 0)}` });
  const admin = await bearer(1);

  // The rows the table names: the location with the most bookings a day, one of its seats, the
  // customer with the most bookings near 500, boards, a name and an e-mail prefix.
  const [busiest] = await q<{ location_id: number; seat: number }>(
    `select c.location_id, min(c.id) as seat from calendars c
     where c.location_id = (select location_id from calendars group by 1 order by count(*) desc, 1 limit 1)
     group by 1`,
  );
  const [regular] = await q<{ user_id: number; n: number }>(
    `select user_id, count(*)::int as n from reservations where user_id is not null
     group by 1 order by abs(count(*) - 500), 1 limit 1`,
  );
  const [someone] = await q<{ first_name: string; email: string }>(
    `select first_name, email from users where id = $1`,
    [regular.user_id],
  );
  const [timeBoard] = await q<{ id: number }>(
    `select b.id from boards b where calculation = 'TIME' and time_frame_days is null
     order by (select count(*) from personal_bests p where p.track_id = b.track_id) desc limit 1`,
  );
  const [pointsBoard] = await q<{ id: number }>(
    `select id from boards where calculation = 'POINTS' order by id limit 1`,
  );
  const locations = await q<{ id: number }>(`select id from locations order by id`);
  const customer = await bearer(regular.user_id);
  const today = DateTime.fromISO(opts.today);
  // Each call of a row asks for another day (or count), so none is answered from a cache that
  // the call before filled: the figures are the database's work, not the answer caches'. The
  // POINTS board's season is kept until race results change (decision 0109): both are shown.
  const day = (i: number) => today.plus({ days: (i % 60) - 30 }).toISODate()!;
  const yearFrom = today.minus({ years: 1 }).plus({ days: 1 });
  const u = (p: string) => `${opts.appBase}/api${p}`;
  const uid = regular.user_id;
  const emailPrefix = someone.email.slice(0, Math.min(8, someone.email.indexOf('.') + 3));

  const targets: Target[] = [
    {
      label: 'seat availability for a day, one seat and a location\u2019s all seats',
      budget: 30,
      calls: [
        {
          name: 'one seat',
          url: (i) => u(`/calendars/${busiest.seat}/avail?date=${day(i)}`),
          headers: customer,
        },
        {
          name: 'all seats',
          url: (i) =>
            u(
              `/calendars/parallel?date=${day(i)}&block=30&location=${busiest.location_id}&sessions=2&racers=1`,
            ),
          headers: customer,
        },
      ],
    },
    {
      label: 'the customer\u2019s dashboard calls (future reservations, charges page 1)',
      budget: 30,
      calls: [
        { name: 'future', url: () => u(`/users/me/reservations/future`), headers: customer },
        { name: 'charges', url: () => u(`/users/me/charges?page=1`), headers: customer },
      ],
    },
    {
      label: 'the daily planner of the busiest location',
      budget: 100,
      calls: [
        {
          name: 'planner',
          url: (i) => u(`/planner?date=${day(i)}&location=${busiest.location_id}`),
          headers: admin,
        },
      ],
    },
    {
      label: 'user search by name or e-mail prefix',
      budget: 50,
      calls: [
        {
          name: 'name',
          url: () => u(`/users?search=${encodeURIComponent(someone.first_name)}&page_size=25`),
          headers: admin,
        },
        {
          name: 'e-mail',
          url: () => u(`/users?search=${encodeURIComponent(emailPrefix)}&page_size=25`),
          headers: admin,
        },
      ],
    },
    {
      label: `the admin user page\u2019s calls for a customer with ${regular.n} bookings`,
      budget: 50,
      calls: [
        { name: 'user', url: () => u(`/users/${uid}`), headers: admin },
        { name: 'balance', url: () => u(`/users/${uid}/balance`), headers: admin },
        { name: 'cost', url: () => u(`/users/${uid}/cost_breakdown`), headers: admin },
        { name: 'disputes', url: () => u(`/users/${uid}/disputes`), headers: admin },
        {
          name: 'history',
          url: () => u(`/reservations?user=${uid}&ordering=slot&page=1&page_size=50`),
          headers: admin,
        },
        { name: 'trail', url: () => u(`/audit?user=${uid}&page_size=10`), headers: admin },
      ],
    },
    {
      label: 'a TIME board and a POINTS board',
      budget: 20,
      calls: [
        {
          name: 'TIME',
          url: (i) => u(`/boards/${timeBoard.id}/results?count=${1 + (i % 50)}`),
          headers: {},
        },
        {
          name: 'POINTS',
          url: () => u(`/teams?board=${pointsBoard.id}&page=1&page_size=25`),
          headers: {},
        },
        // The same board ranked afresh at each call: every kept season is forgotten first, as
        // a race import's trigger makes every instance do (decision 0109).
        {
          name: 'POINTS ranked afresh (once per race import; aside)',
          url: () => u(`/teams?board=${pointsBoard.id}&page=1&page_size=25`),
          headers: {},
          before: () => q(`select pg_notify('paddock_cache', 'r')`),
          aside: true,
        },
      ],
    },
    {
      label:
        'the owner\u2019s reports for a location\u2019s year and for all locations\u2019 month',
      budget: 500,
      calls: [
        {
          name: 'year',
          url: (i) =>
            u(
              `/reports?location=${busiest.location_id}&from=${yearFrom.minus({ days: i }).toISODate()}&to=${today.minus({ days: i }).toISODate()}`,
            ),
          headers: admin,
        },
        {
          name: 'each location\u2019s month',
          url: (i) =>
            u(
              `/reports?location=${locations[i % locations.length].id}&from=${today.minus({ days: 29 }).toISODate()}&to=${opts.today}`,
            ),
          headers: admin,
        },
      ],
    },
    {
      label: 'the audit trail, first page and filtered by user',
      budget: 50,
      calls: [
        { name: 'first page', url: () => u(`/audit?page=1`), headers: admin },
        { name: 'by user', url: () => u(`/audit?user=${uid}&page=1`), headers: admin },
      ],
    },
  ];

  const client = new SequentialClient();
  const lines = [
    `| screen / call | budget | measured p99 (p50), ms, ${CHAIN_CALLS} calls each | |`,
    '|---|---|---|---|',
  ];
  for (const t of targets) {
    const parts: string[] = [];
    let worst = 0;
    for (const c of t.calls) {
      const r = await client.p99(c.url, c.headers, c.before);
      if (!c.aside) worst = Math.max(worst, r.p99);
      parts.push(
        `${c.name} ${r.p99.toFixed(0)} (p50 ${r.p50.toFixed(0)})${r.failed ? ` (${r.failed} not 200!)` : ''}`,
      );
    }
    lines.push(
      `| ${t.label} | < ${t.budget} ms | ${parts.join(', ')} | ${worst < t.budget ? 'ok' : 'OVER'} |`,
    );
  }
  client.close();
  return lines;
}
