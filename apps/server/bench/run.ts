// `npm run bench`: ratios measured in one run on this machine (DESIGN §6). Not part of `npm test`.
//   availability and parallel search vs a bare route returning the same JSON;
//   booking, and processing a one-seat checkout paid by card (local provider), vs a bare route
//   doing one raw INSERT on the same database;
//   a 200-client storm for one seat over two app instances sharing one PostgreSQL;
//   web delivery: initial JavaScript per route (gzip), Lighthouse (mobile), npm start's start
//   times (web.ts; BENCH_ONLY=web runs only these).
import autocannon from 'autocannon';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { createUser } from '../src/test/factories';
import { boardBenchmarks } from './boards';
import { chainBenchmark, chainDatabase } from './chain';
import { checkoutBenchmark, receiptRenderFigure } from './checkouts';
import { plannerBenchmark } from './planner';
import { racesBenchmark } from './races';
import { webBenchmarks } from './web';
import { reportsBenchmark } from './reports';
import {
  benchVenue,
  bookingSlots,
  buildServer,
  CONNECTIONS,
  formatRow as fmt,
  load,
  loadAverage,
  PORT_BASE,
  root,
  rssMb,
  runBench,
  scratchDir,
  SECONDS,
  SECRET,
  stageDatabase,
  startApp as startAppIn,
  startBareServer,
  stopBench,
  type Row,
} from './harness';

const WEB_PORT = PORT_BASE + 3;

const appPids = new Map<number, number | undefined>();
const tmp = scratchDir('paddock-bench-');

async function startApp(databaseUrl: string, port: number) {
  appPids.set(port, (await startAppIn(databaseUrl, port, tmp)).pid);
}

async function main() {
  console.log(
    `Paddock benchmarks: ${os.cpus().length} cores, ${SECONDS}s per run, ${CONNECTIONS} connections\n`,
  );
  const web = () => webBenchmarks({ root, tmp, port: WEB_PORT });
  if (process.env.BENCH_ONLY === 'web') {
    for (const line of await web()) console.log(line);
    fs.rmSync(tmp, { recursive: true, force: true });
    return;
  }
  if (process.env.BENCH_ONLY === 'chain') return chain();
  const { server, url, database } = await stageDatabase(tmp, { statements: false });

  const { ctx, location, type, seats, customer, deskStaff, deskAuth } = await benchVenue(database);
  const auth = { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' };
  const date = DateTime.utc().plus({ days: 3 }).toISODate()!;

  const [appPort, app2Port, barePort] = [PORT_BASE, PORT_BASE + 1, PORT_BASE + 2];
  await startApp(url, appPort);
  const base = `http://127.0.0.1:${appPort}`;
  // Resident memory of the first instance after each stage (issue 14: < 250 MB through the
  // mixed load); start-up is read once it answers and has settled for a second.
  await new Promise((r) => setTimeout(r, 1000));
  const rssAfter: [stage: string, mb: number][] = [['start-up', rssMb(appPids.get(appPort))]];
  const stageRss = (stage: string) => rssAfter.push([stage, rssMb(appPids.get(appPort))]);

  // Race control: one change to 300 launcher sockets over two instances (BENCH_ONLY=races).
  const races = async () => {
    const raceStaff = await createUser(ctx, {
      isStaff: true,
      permissions: ['leaderboards.can_manage_race_events'],
    });
    for (const line of await racesBenchmark({
      database,
      appBases: [base, `http://127.0.0.1:${app2Port}`],
      staffToken: raceStaff.token,
      calendarId: seats[0].id,
    }))
      console.log(line);
  };
  if (process.env.BENCH_ONLY === 'races') {
    await startApp(url, app2Port);
    await races();
    return finish();
  }

  // Reports over a year of a 30-seat location (BENCH_ONLY=reports).
  const only = process.env.BENCH_ONLY;
  const reports = async () => {
    const owner = await createUser(ctx, { isStaff: true, permissions: ['reports.view_report'] });
    for (const line of await reportsBenchmark({
      database,
      appBase: base,
      staffToken: owner.token,
      typeId: type.id,
    }))
      console.log(line);
  };
  if (only === 'reports') {
    await reports();
    return finish();
  }

  // The daily planner of a 300-seat location (BENCH_ONLY=server or boards skips it).
  if (only !== 'server' && only !== 'boards')
    for (const line of await plannerBenchmark({
      database,
      appBase: base,
      staffToken: deskStaff.token,
      userId: customer.id,
      typeId: type.id,
      seconds: SECONDS,
    }))
      console.log(line);

  if (only === 'planner') return finish();
  if (only !== 'server' && only !== 'boards') await reports();
  console.log('');
  if (only === 'boards') {
    await boards();
    return finish();
  }

  const availPath = `/api/calendars/${seats[0].id}/avail?date=${date}`;
  const parallelPath = `/api/calendars/parallel?date=${date}&block=30&location=${location.id}&sessions=2&racers=4`;
  const availJson = await (await fetch(base + availPath, { headers: auth })).text();
  const parallelJson = await (await fetch(base + parallelPath, { headers: auth })).text();
  fs.writeFileSync(path.join(tmp, 'avail.json'), availJson);
  fs.writeFileSync(path.join(tmp, 'parallel.json'), parallelJson);
  await startBareServer({
    port: barePort,
    databaseUrl: url,
    availJson: path.join(tmp, 'avail.json'),
    parallelJson: path.join(tmp, 'parallel.json'),
  });
  const bareBase = `http://127.0.0.1:${barePort}`;

  const rows: Row[] = [];
  const ratio = (a: Row, b: Row) =>
    `${((a.rps / b.rps) * 100).toFixed(0)}% of the bare route's throughput, p99 ${a.p99} vs ${b.p99} ms`;

  rows.push(await load(`bare GET (${availJson.length} B JSON)`, { url: `${bareBase}/avail` }));
  rows.push(await load('GET /calendars/{id}/avail', { url: base + availPath, headers: auth }));
  stageRss('avail');
  rows.push(
    await load(`bare GET (${parallelJson.length} B JSON)`, { url: `${bareBase}/parallel` }),
  );
  rows.push(
    await load('GET /calendars/parallel (20 seats)', { url: base + parallelPath, headers: auth }),
  );
  stageRss('parallel');

  // Every booking request takes a distinct seat-slot from the next two months.
  const slots = bookingSlots(seats);
  let next = 0;
  const nextBody = () => JSON.stringify({ ...slots[next++ % slots.length], user: customer.id });
  let nextBare = 0;
  const bareInsert: autocannon.Request[] = [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (r) => ({ ...r, body: JSON.stringify(slots[nextBare++ % slots.length]) }),
    },
  ];
  const booking: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/api/reservations',
      headers: deskAuth,
      setupRequest: (r) => ({ ...r, body: nextBody() }),
    },
  ];
  // Both write routes warm for 3 s unmeasured first, as the checkout rows are (decision 0068):
  // the rows measure a running server, not its first bookings' JIT and first report rows.
  for (const warm of [
    { url: `${bareBase}/insert`, requests: bareInsert },
    { url: base, requests: booking },
  ])
    await autocannon({ connections: CONNECTIONS, duration: 3, ...warm });
  rows.push(
    await load('bare POST: one raw INSERT', {
      url: `${bareBase}/insert`,
      requests: bareInsert,
    }),
  );
  rows.push(
    await load('POST /reservations (staff books a seat)', { url: base, requests: booking }),
  );
  stageRss('booking');

  rows.push(
    await checkoutBenchmark({
      database,
      tokens: ctx.deps.tokens,
      appBase: base,
      load,
      appPid: appPids.get(appPort),
    }),
  );
  // The same with the checkouts dealt to 100 customers in turn: a venue's checkouts are many
  // people's, while the row above has every one of them belong to one customer.
  rows.push(
    await checkoutBenchmark({
      database,
      tokens: ctx.deps.tokens,
      appBase: base,
      load,
      appPid: appPids.get(appPort),
      customers: 100,
    }),
  );
  stageRss('checkout');

  for (const r of rows) console.log(fmt(r));
  console.log('');
  console.log(`availability:     ${ratio(rows[1], rows[0])}`);
  console.log(`parallel search:  ${ratio(rows[3], rows[2])}`);
  console.log(`booking:          ${ratio(rows[5], rows[4])}`);
  console.log(`checkout process, one customer:    ${ratio(rows[6], rows[4])}`);
  console.log(`checkout process, 100 customers:  ${ratio(rows[7], rows[4])}`);
  console.log(await receiptRenderFigure());

  // Availability on two API instances sharing the one PostgreSQL, against one instance (issue
  // 14: ≥ 1.6× where there are the cores for it). Each instance gets half the connections.
  await startApp(url, app2Port);
  const availOn = (port: number, connections: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}${availPath}`,
      headers: auth,
      connections,
      duration: SECONDS,
    });
  const one = await availOn(appPort, CONNECTIONS);
  const two = await Promise.all([
    availOn(appPort, CONNECTIONS / 2),
    availOn(app2Port, CONNECTIONS / 2),
  ]);
  const twoRps = two[0].requests.average + two[1].requests.average;
  console.log(
    `availability, 2 instances vs 1 (${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}): ${twoRps.toFixed(0)} vs ${one.requests.average.toFixed(0)} req/s = ${(
      twoRps / one.requests.average
    ).toFixed(
      2,
    )}×, p99 ${Math.max(two[0].latency.p99, two[1].latency.p99)} vs ${one.latency.p99} ms`,
  );

  // Memory through a mixed load on one instance: reads, searches and bookings at once.
  const mixedSeconds = Number(process.env.BENCH_MIXED_SECONDS ?? 300);
  let peak = rssMb(appPids.get(appPort));
  const before = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(appPids.get(appPort)))), 500);
  const mixed = await Promise.all([
    autocannon({ url: base + availPath, headers: auth, connections: 8, duration: mixedSeconds }),
    autocannon({ url: base + parallelPath, headers: auth, connections: 8, duration: mixedSeconds }),
    autocannon({
      url: base,
      connections: 4,
      duration: mixedSeconds,
      requests: [
        {
          method: 'POST',
          path: '/api/reservations',
          headers: deskAuth,
          setupRequest: (r) => ({ ...r, body: nextBody() }),
        },
      ],
    }),
  ]);
  clearInterval(sampler);
  stageRss('mixed load');
  const served = mixed.reduce((n, r) => n + r.requests.total, 0);
  const failed = mixed.reduce((n, r) => n + r.non2xx + r.errors, 0);
  console.log(
    `memory of an app instance after start-up (idle): RSS ${rssAfter[0][1].toFixed(0)} MB`,
  );
  console.log(
    `memory after each stage: ${rssAfter.map(([stage, mb]) => `${stage} ${mb.toFixed(0)}`).join(', ')} MB`,
  );
  console.log(
    `memory through a ${mixedSeconds} s mixed load (avail, parallel, bookings; ${served} requests: ${mixed.map((r) => r.requests.total).join(', ')}; ${failed} non-2xx): RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`,
  );

  // The storm: 200 customers, one seat-slot, two API instances on one PostgreSQL.
  const stormers = [];
  for (let i = 0; i < 200; i++)
    stormers.push(await createUser(ctx, { password: 'storm-password' }));
  const target = {
    calendar: seats[19].id,
    slot: DateTime.utc()
      .startOf('day')
      .plus({ days: 58, hours: 12 })
      .toFormat("yyyy-MM-dd'T'HH:mm"),
  };
  const started = performance.now();
  const statuses = await Promise.all(
    stormers.map((u, i) =>
      fetch(`http://127.0.0.1:${i % 2 ? app2Port : appPort}/api/reservations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(target),
      }).then((r) => r.status),
    ),
  );
  const stormMs = performance.now() - started;
  const winners = statuses.filter((s) => s === 201).length;
  const losers = statuses.filter((s) => s === 400).length;
  console.log(
    `double-booking storm: 200 clients, 2 instances: ${winners} winner, ${losers} refused with 400, ${200 - winners - losers} other, in ${stormMs.toFixed(0)} ms`,
  );
  // The booking write path's guarantee belongs with the server figures (decision 0046).
  if (only === 'server') return finish();

  console.log('');
  await races();

  // Leaderboards at 1 M and 5 M laps, and lap ingestion (BENCH_BOARDS=false skips them).
  if (process.env.BENCH_BOARDS !== 'false') {
    console.log('');
    await boards();
  }

  // The web app: initial JavaScript per route, Lighthouse, npm start's start times.
  console.log('');
  for (const line of await web()) console.log(line);
  await finish();

  // Leaderboards at 1 M and 5 M laps, and lap ingestion.
  async function boards() {
    const lines = await boardBenchmarks({
      database,
      appBase: base,
      tmp,
      seatId: seats[0].id,
      port: PORT_BASE + 5,
    });
    for (const line of lines) console.log(line);
  }

  async function finish() {
    await stopBench({ database, server, url, tmp });
  }
}

/** The chain of fifty venues (issue 33): seeded or reused, then the issue's table. */
async function chain() {
  const scale = Number(process.env.SEED_CHAIN_SCALE ?? 0.01);
  const today = process.env.SEED_CHAIN_TODAY ?? DateTime.utc().toISODate()!;
  console.log(`The chain at scale ${scale} (SEED_CHAIN_SCALE), history up to ${today}`);
  const { database, url, server, seeded } = await chainDatabase({ root, scale, today });
  console.log(`chain database: ${seeded}`);
  // Built first, so the start below is the server's start, not esbuild's.
  buildServer();
  // Another bench's server on the port would answer in this one's place.
  const free = await new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(PORT_BASE, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
  if (!free) throw new Error(`port ${PORT_BASE} is taken: set BENCH_PORT_BASE`);
  const started = performance.now();
  await startApp(url, PORT_BASE);
  const startMs = performance.now() - started;
  const base = `http://127.0.0.1:${PORT_BASE}`;
  const lines = await chainBenchmark({ database, appBase: base, secret: SECRET, today });
  for (const line of lines) console.log(line);
  // BENCH_CHAIN_TWICE=1: the table again, on the server the first pass warmed.
  if (process.env.BENCH_CHAIN_TWICE) {
    const again = await chainBenchmark({ database, appBase: base, secret: SECRET, today });
    for (const line of again.slice(2)) console.log(line);
  }
  console.log(
    `start on the chain (migrations applied, until it answers): ${startMs.toFixed(0)} ms; ` +
      `server RSS after the table ${rssMb(appPids.get(PORT_BASE)).toFixed(0)} MB; ` +
      `load average ${loadAverage()} on ${os.cpus().length} cores`,
  );
  await stopBench({ database, server, url, tmp });
}

runBench(main);
