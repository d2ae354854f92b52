// The booking stage of `npm run bench` alone (decision 0060): the bare raw INSERT and
// POST /api/reservations (staff books a seat) in alternating rounds, with the CPU each process
// group used per request read from /proc, and pg_stat_statements' timing of the statements the
// booking runs. Not part of `npm test`. `npx tsx apps/server/bench/booking-stage.ts`; knobs:
// BENCH_PORT_BASE, BENCH_SECONDS (8), BENCH_ROUNDS (2), BENCH_KEEP=1 (print the database URL and
// wait for Enter before stopping, to EXPLAIN on it).
import os from 'node:os';
import {
  bareInsertRequests,
  benchVenue,
  bookingSlots,
  loadAverage,
  measureStage,
  printStatements,
  ROUNDS,
  runBench,
  scratchDir,
  startStage,
  stopBench,
} from './harness';

const tmp = scratchDir('paddock-booking-bench-');

async function main() {
  const { server, postmaster, url, database, app, bare, appPort, barePort } = await startStage(tmp);
  const { seats, customer, deskAuth } = await benchVenue(database);

  const slots = bookingSlots(seats);
  let next = 0;
  const bareInsert = bareInsertRequests(slots);
  const measure = (title: string, pid: number, load: Parameters<typeof measureStage>[0]['load']) =>
    measureStage({ database, postmaster, title, pid, load });
  console.log(`booking stage, ${os.cpus().length} cores, load average ${loadAverage()}`);
  for (let round = 0; round < ROUNDS; round++) {
    await database.pool.query('select pg_stat_statements_reset()');
    const b = await measure('bare POST: one raw INSERT', bare.pid!, {
      url: `http://127.0.0.1:${barePort}/insert`,
      requests: bareInsert,
    });
    const r = await measure('POST /reservations', app.pid!, {
      url: `http://127.0.0.1:${appPort}`,
      requests: [
        {
          method: 'POST',
          path: '/api/reservations',
          headers: deskAuth,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ ...slots[next++ % slots.length], user: customer.id }),
          }),
        },
      ],
    });
    console.log(`  booking: ${((r / b) * 100).toFixed(0)}% of the bare route`);
  }
  await printStatements(database);
  console.log(`load average ${loadAverage()}`);
  await stopBench({ database, server, url, tmp });
}

runBench(main);
