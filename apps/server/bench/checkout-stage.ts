// The checkout stage of `npm run bench` alone (decision 0062): the bare raw INSERT and
// POST /api/reservations/checkouts/{id}/process (one seat, saved card, local provider) in
// alternating rounds, for one customer's checkouts and for 100 customers', with the CPU each
// process group used per request read from /proc, what the busy PostgreSQL backends wait on and
// which locks they wait for (sampled every 20 ms), and pg_stat_statements. Not part of
// `npm test`. `npx tsx apps/server/bench/checkout-stage.ts`; knobs: BENCH_PORT_BASE,
// BENCH_SECONDS (8), BENCH_ROUNDS (2), BENCH_CUSTOMERS (100), BENCH_PROFILE=<dir>,
// BENCH_HISTORY (0: past paid bookings written first, as a venue's database after a year holds).
import os from 'node:os';
import { Tokens } from '../src/plugins/auth';
import { paidCount, processLoad, quoteCheckouts, receiptsSent, warmUp } from './checkouts';
import {
  bareInsertRequests,
  loadAverage,
  measureStage,
  printStatements,
  ROUNDS,
  runBench,
  scratchDir,
  SECRET,
  startStage,
  stopBench,
} from './harness';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100);
const tmp = scratchDir('paddock-checkout-bench-');

async function main() {
  const { server, postmaster, url, database, app, bare, appPort, barePort } = await startStage(tmp);
  const tokens = new Tokens(SECRET, 3600);

  const slots: { calendar: number; slot: string }[] = [];
  for (let n = 0; n < 100_000; n++) slots.push({ calendar: n % 20, slot: `s${n}` });
  const bareInsert = bareInsertRequests(slots);
  const appBase = `http://127.0.0.1:${appPort}`;
  const one = await quoteCheckouts({ database, tokens, appBase, customers: 1, name: 'One' });
  const many = await quoteCheckouts({
    database,
    tokens,
    appBase,
    customers: CUSTOMERS,
    name: 'Many',
  });
  const history = Number(process.env.BENCH_HISTORY ?? 0);
  if (history > 0) {
    // A seat of its own, half-hours back from yesterday (decision 0069: what a checkout
    // statement scans, if it scans, grows with these).
    const [{ id: seat }] = (
      await database.pool.query<{ id: number }>(
        `insert into calendars (name, location_id, type_id, cost_cents)
         select 'History', location_id, type_id, cost_cents from calendars limit 1 returning id`,
      )
    ).rows;
    await database.pool.query(
      `insert into reservations (calendar_id, slot, time, paid, amount_cents)
       select $1::int, to_char(t, 'YYYY-MM-DD"T"HH24:MI'), t, true, 2500
       from generate_series(date_trunc('day', now()) - interval '30 minutes',
         date_trunc('day', now()) - ($2::int * interval '30 minutes'), -interval '30 minutes') t`,
      [seat, history],
    );
    await database.pool.query('vacuum analyze reservations');
    console.log(`history: ${history} past paid bookings`);
  }
  // Each row's lock waits with the statement waiting; a checkout's confirmation is its work
  // too: a row counts the checkouts paid, once every confirmation is sent.
  const measure = (title: string, pid: number, load: Parameters<typeof measureStage>[0]['load']) =>
    measureStage({
      database,
      postmaster,
      title,
      pid,
      load,
      lockSampling: 'with-statement',
      rowsWritten: true,
      count: async () => {
        const paid = await paidCount(database);
        return {
          done: async () => {
            await receiptsSent(database);
            return (await paidCount(database)) - paid;
          },
        };
      },
    });
  // BENCH_COLD=1 measures the first row cold (the app's first confirmations load MJML).
  if (!process.env.BENCH_COLD) {
    await warmUp(database, appBase, one);
    await warmUp(database, appBase, many);
  }
  console.log(`checkout stage, ${os.cpus().length} cores, load average ${loadAverage()}`);
  for (let round = 0; round < ROUNDS; round++) {
    await database.pool.query('select pg_stat_statements_reset()');
    const b = await measure('bare POST: one raw INSERT', bare.pid!, {
      url: `http://127.0.0.1:${barePort}/insert`,
      requests: bareInsert,
    });
    // BENCH_MANY_FIRST=1 swaps the two checkout rows (to tell an order effect from theirs).
    const manyFirst = Boolean(process.env.BENCH_MANY_FIRST);
    const runMany = () =>
      measure(`checkout, ${CUSTOMERS} customers`, app.pid!, processLoad(appBase, many));
    const runOne = () => measure('checkout, one customer', app.pid!, processLoad(appBase, one));
    const cn0 = manyFirst ? await runMany() : 0;
    const c1 = await runOne();
    const cn = manyFirst ? cn0 : await runMany();
    console.log(
      `  checkout: ${((c1 / b) * 100).toFixed(1)}% (one customer), ${((cn / b) * 100).toFixed(1)}% (${CUSTOMERS} customers) of the bare route`,
    );
  }
  await printStatements(database);
  console.log(`load average ${loadAverage()}`);
  await stopBench({ database, server, url, tmp });
}

runBench(main);
