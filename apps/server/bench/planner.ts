// Planner benchmark for `npm run bench` (issue 11): the day call of a 300-seat, 3-location venue
// (location=all) with most of its day booked, its latency and the SQL round trips one call makes.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { DateTime } from 'luxon';
import type { Database } from '../src/db/client';

const CHROMIUM = '/usr/bin/chromium';

export async function plannerBenchmark(opts: {
  database: Database;
  appBase: string;
  staffToken: string;
  userId: number;
  typeId: number;
  seconds: number;
}) {
  const q = (text: string, params: unknown[] = []) => opts.database.pool.query(text, params);
  // Three locations of 100 seats each, open around the clock, in one time zone.
  const openAllDay = JSON.stringify(
    Object.fromEntries(
      ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '00:00', close: '23:59' }]]),
    ),
  );
  const seatIds: number[] = [];
  for (const hall of ['A', 'B', 'C']) {
    const location = (
      await q(
        `insert into locations (name, timezone, opening_hours)
         values ('Bench Planner Hall ' || $2, 'UTC', $1) returning id`,
        [openAllDay, hall],
      )
    ).rows[0].id as number;
    const ids = await q(
      `insert into calendars (name, type_id, location_id, cost_cents, sort_order)
       select 'Hall ' || g, $1, $2, 2500, g from generate_series(1, 100) g returning id`,
      [opts.typeId, location],
    );
    seatIds.push(...ids.rows.map((r) => r.id as number));
  }
  const date = DateTime.utc().plus({ days: 5 }).toISODate()!;
  // Two slots in three taken: 9 600 reservations, every tenth a blackout.
  const booked = await q(
    `insert into reservations (calendar_id, slot, time, user_id, paid, amount_cents, is_blackout, notes)
     select s, to_char(t, 'YYYY-MM-DD"T"HH24:MI'), t,
            case when (s + n) % 10 = 0 then null else $1::int end, (s + n) % 2 = 0, 2500,
            (s + n) % 10 = 0, case when (s + n) % 10 = 0 then 'Bench blackout' else '' end
     from unnest($2::int[]) s,
          generate_series(0, 47) n,
          lateral (select ($3::date + make_interval(mins => n * 30))::timestamptz as t) x
     where (s + n) % 3 <> 0`,
    [opts.userId, seatIds, date],
  );
  // As autovacuum would after such a load: the planner's plan depends on the statistics.
  await q('analyze reservations, calendars, users');
  const url = `${opts.appBase}/api/planner?date=${date}&location=all`;
  const headers = { authorization: `Bearer ${opts.staffToken}` };

  // Round trips of one call: statements PostgreSQL counts for this database around it.
  const statements = async () =>
    Number(
      (
        await q(
          `select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`,
        )
      ).rows[0].n,
    );
  await fetch(url, { headers });
  // Backends report their statistics at most once a second: let the earlier calls land first.
  await new Promise((r) => setTimeout(r, 1500));
  await q('select pg_stat_clear_snapshot()');
  const before = await statements();
  const text = await (await fetch(url, { headers })).text();
  const body = JSON.parse(text) as { entries: unknown[]; seats: unknown[] };
  if (!Array.isArray(body.entries)) throw new Error(`planner answered ${JSON.stringify(body)}`);
  await new Promise((r) => setTimeout(r, 1500));
  await q('select pg_stat_clear_snapshot()');
  // Minus this probe's own two statements.
  const trips = (await statements()) - before - 2;

  // One desk loading the day: calls one after another, as the planner makes them.
  const single: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    single.push(performance.now() - started);
  }
  single.sort((a, b) => a - b);
  const pct = (p: number) => single[Math.min(single.length - 1, Math.floor(single.length * p))];
  const result = await autocannon({ url, headers, connections: 8, duration: opts.seconds });
  const browser = await renderInChromium(opts.appBase, opts.staffToken, date);
  return [
    `planner day, one call at a time: p50 ${pct(0.5).toFixed(0)} ms, p99 ${pct(0.99).toFixed(0)} ms (30 calls)`,
    `planner day, all locations (${body.seats.length} seats, ${booked.rowCount} taken slots, ${body.entries.length} in the answer, ${(text.length / 1024).toFixed(0)} KB): ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s (8 connections), ` +
      `${trips} SQL round trips per call (auth included)`,
    browser,
  ];
}

/**
 * The planner screen in Chromium: from navigation to the first cell of the 320-seat day on
 * screen, then 60 frames of scrolling sideways through the seats (frame times).
 */
async function renderInChromium(appBase: string, token: string, date: string) {
  if (!fs.existsSync(CHROMIUM)) return 'planner in Chromium: skipped (no /usr/bin/chromium)';
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // Browser code as text: this package is type-checked without the DOM's types.
    await page.addInitScript({
      content: `localStorage.setItem('paddock.token', ${JSON.stringify(token)})`,
    });
    const loads: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto(`${appBase}/admin/seats?date=${date}&location=all`);
      await page.locator('.paddock-planner-cell').first().waitFor();
      loads.push(await page.evaluate<number>('performance.now()'));
    }
    loads.sort((a, b) => a - b);
    const frames = await page.evaluate<number[]>(`new Promise((resolve) => {
      const grid = document.querySelector('.paddock-planner');
      const times = [];
      let last = performance.now();
      const step = () => {
        const now = performance.now();
        times.push(now - last);
        last = now;
        grid.scrollLeft += 260;
        grid.scrollTop += 40;
        if (times.length < 60) requestAnimationFrame(step);
        else resolve(times.slice(1));
      };
      requestAnimationFrame(step);
    })`);
    frames.sort((a, b) => a - b);
    const median = frames[Math.floor(frames.length / 2)];
    return (
      `planner in Chromium (1920×1080, 320 seats): first cells on screen after ${loads[2].toFixed(0)} ms ` +
      `(median of 5 loads, navigation included); scrolling: median frame ${median.toFixed(0)} ms, ` +
      `slowest ${frames[frames.length - 1].toFixed(0)} ms`
    );
  } finally {
    await browser.close();
  }
}
