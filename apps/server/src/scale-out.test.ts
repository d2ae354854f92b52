import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import WebSocket from 'ws';
import { sql } from 'drizzle-orm';
import { settings } from './db/schema/content';
import { bearer, createUser, type CreatedUser } from './test/factories';
import { createVenue, futureDate } from './test/booking-factories';
import { until } from './test/until';
import { saveTestCard } from './test/cards';
import type { App } from './deps';
import { freePort } from './test/free-port';
import {
  buildServer,
  cloneDatabase,
  startServer,
  type ServerProcess,
} from './test/compiled-server';

// Issue 29, scale-out: HAProxy (Debian's) in front of two compiled instances on one database,
// health-checked on /api/ready. Under bookings, board reads, an event stream and a launcher socket,
// one instance is stopped (SIGTERM), later the other killed (SIGKILL). Decision 0080.
//
// `npm test` runs this in its first server pass only (SKIP_SCALE_OUT in the second).

const root = path.resolve(import.meta.dirname, '../../..');
/** The configuration operators use (README), addresses from the environment. */
const HAPROXY_CFG = path.join(root, 'docs/operating/haproxy.cfg');
const HAPROXY_HTTPS_CFG = path.join(root, 'docs/operating/haproxy-https.cfg');
const checks = fs.readFileSync(HAPROXY_CFG, 'utf8').match(/inter (\d+)ms fall (\d+)/)!;
/** The health check: every INTER_MS; an instance is down after FALL failures in a row. */
const INTER_MS = Number(checks[1]);
const FALL = Number(checks[2]);

function haproxyAvailable(): boolean {
  if (fs.existsSync('/usr/sbin/haproxy')) return true;
  // The project's scripts install it as they install Chromium (scripts/lib.mjs).
  const lib = path.join(root, 'scripts/lib.mjs');
  const install = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(lib)}); process.exit((await m.ensureHaproxy()) ? 0 : 1);`,
    ],
    { stdio: 'inherit', timeout: 300_000 },
  );
  return install.status === 0;
}

const skip = process.env.SKIP_SCALE_OUT === '1';
const available = !skip && haproxyAvailable();
if (!skip && !available)
  console.warn(
    'SKIPPED scale-out test: HAProxy is not installed and could not be (apt-get install haproxy failed).',
  );

type Answer = {
  what: string;
  status: number;
  /** When the request was sent, and when its answer (or failure) came. */
  sent: number;
  at: number;
  instance: string | null;
  /** The body of a failed answer (for the log). */
  body?: string;
};

let target: Awaited<ReturnType<typeof cloneDatabase>>;
const instances = new Map<string, ServerProcess>();
let ports: Record<string, number>;
let haproxy: ChildProcess | null = null;
let haproxyLog = '';
/** When HAProxy said each server went DOWN (its own log line, read as it comes). */
const downAt = new Map<string, number>();
let lb: string;

beforeAll(async () => {
  if (!available) return;
  buildServer();
  target = await cloneDatabase();
  ports = { a: await freePort(), b: await freePort() };
  for (const name of ['a', 'b'])
    instances.set(
      name,
      await startServer(
        target,
        // The default idle grace (2 s) is above the checks' inter × fall (1 s).
        { SHUTDOWN_TIMEOUT_SECONDS: '5' },
        ports[name],
      ),
    );
  const lbPort = await freePort();
  lb = `http://127.0.0.1:${lbPort}`;
  haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', HAPROXY_CFG], {
    env: {
      ...process.env,
      PADDOCK_LB: `127.0.0.1:${lbPort}`,
      PADDOCK_A: `127.0.0.1:${ports.a}`,
      PADDOCK_B: `127.0.0.1:${ports.b}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  haproxy.stdout!.on('data', (d: Buffer) => (haproxyLog += d.toString()));
  haproxy.stderr!.on('data', (d: Buffer) => {
    haproxyLog += d.toString();
    for (const m of d.toString().matchAll(/Server paddock\/(\w+) is DOWN/g))
      downAt.set(m[1], Date.now());
  });
  await bothUp();
}, 180_000);
afterAll(async () => {
  haproxy?.kill('SIGKILL');
  for (const i of instances.values()) i.proc.kill('SIGKILL');
  await target?.drop();
});

/** Until answers through the LB came from both instances (both checked up). */
async function bothUp(ms = 30_000) {
  const seen = new Set<string>();
  const end = Date.now() + ms;
  while (seen.size < 2) {
    if (Date.now() > end) throw new Error(`not both instances up: ${[...seen]} ${haproxyLog}`);
    try {
      const res = await fetch(`${lb}/api/health`);
      const who = res.headers.get('x-paddock-instance');
      if (res.status === 200 && who) seen.add(who);
    } catch {
      /* haproxy not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Bookings (each a slot of its own) by several customers and board reads, through the LB, until
 * stopped. Every answer is kept with its time; a failed request counts as status 0.
 */
function startLoad(customers: CreatedUser[], seats: number[], firstDay: number) {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const slot = () => {
    const k = n++;
    const seat = seats[k % seats.length];
    const j = Math.floor(k / seats.length);
    const minutes = (j % 48) * 30;
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 ? '30' : '00'}`;
    return { calendar: seat, slot: `${futureDate(firstDay + Math.floor(j / 48))}T${time}` };
  };
  const booked: { calendar: number; slot: string }[] = [];
  const request = async (what: string, url: string, init: RequestInit) => {
    let status = 0;
    let instance: string | null = null;
    let body: string | undefined;
    const sent = Date.now();
    try {
      const res = await fetch(url, init);
      status = res.status;
      instance = res.headers.get('x-paddock-instance');
      const text = await res.text();
      if (status >= 300) body = text.slice(0, 200);
      else (init as { onAnswer?: (a: unknown) => void }).onAnswer?.(JSON.parse(text));
    } catch (e) {
      body = String((e as Error).cause ?? e);
    }
    answers.push({ what, status, sent, at: Date.now(), instance, body });
    return status;
  };
  const pause = () => new Promise((r) => setTimeout(r, 20));
  const json = (customer: CreatedUser, body: object): RequestInit => ({
    method: 'POST',
    headers: { ...bearer(customer.token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // Half the customers book (POST /api/reservations), half check out with their saved card
  // (quote, then process): both are acknowledged bookings.
  // A direct booking is unpaid and a customer holds at most 100 of those (set below): a fast
  // machine books more than that in one load, so a booker past 80 checks out like the others.
  const booker = async (customer: CreatedUser, i: number) => {
    let unpaid = 0;
    while (running) {
      const body = slot();
      if (i % 2 === 0 && unpaid < 80) {
        const status = await request('booking', `${lb}/api/reservations`, json(customer, body));
        if (status === 201) {
          booked.push(body);
          unpaid++;
        }
      } else {
        let checkout: string | null = null;
        await request('quote', `${lb}/api/reservations/checkouts/quote`, {
          ...json(customer, { reservations: [body] }),
          onAnswer: (answer: { checkout_id?: string }) => (checkout = answer.checkout_id ?? null),
        } as RequestInit);
        if (checkout) {
          const status = await request(
            'checkout',
            `${lb}/api/reservations/checkouts/${checkout}/process`,
            json(customer, {}),
          );
          if (status === 200) booked.push(body);
        }
      }
      await pause();
    }
  };
  const reader = async () => {
    while (running) {
      await request('board', `${lb}/api/boards`, {});
      await pause();
    }
  };
  const done = Promise.all([...customers.map((c, i) => booker(c, i)), reader(), reader()]);
  return {
    answers,
    booked,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** An event stream through the LB that reconnects like EventSource: `retry`, Last-Event-ID. */
function reconnectingStream(url: string, token: string) {
  const state = {
    instances: [] as string[],
    ids: [] as number[],
    connections: 0,
    stopped: false,
    req: null as http.ClientRequest | null,
  };
  let retry = 2000;
  const open = () => {
    if (state.stopped) return;
    const last = state.ids.at(-1);
    const req = http.get(
      url,
      { headers: { ...bearer(token), ...(last ? { 'last-event-id': String(last) } : {}) } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return void setTimeout(open, retry);
        }
        state.connections += 1;
        state.instances.push(String(res.headers['x-paddock-instance']));
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const r = frame.match(/^retry: (\d+)$/m)?.[1];
            if (r) retry = Number(r);
            const id = frame.match(/^id: (\d+)$/m)?.[1];
            if (id) state.ids.push(Number(id));
          }
        });
        // Ended by the server, or cut (its instance killed): either way, come back after `retry`.
        res.on('close', () => setTimeout(open, retry));
        res.on('error', () => {});
      },
    );
    req.on('error', () => setTimeout(open, retry));
    state.req = req;
  };
  open();
  return {
    state,
    close() {
      state.stopped = true;
      state.req?.destroy();
    },
  };
}

/** A launcher socket through the LB that reconnects after any close but a normal one. */
function reconnectingSocket(url: string, token: string) {
  const state = {
    instances: [] as string[],
    closeCodes: [] as number[],
    messages: [] as { type: string; data?: Record<string, unknown> }[],
    stopped: false,
    ws: null as WebSocket | null,
  };
  const open = () => {
    if (state.stopped) return;
    const ws = new WebSocket(url, { headers: bearer(token) });
    state.ws = ws;
    ws.on('upgrade', (res) => state.instances.push(String(res.headers['x-paddock-instance'])));
    ws.on('message', (m) => state.messages.push(JSON.parse(String(m))));
    ws.on('close', (code) => {
      state.closeCodes.push(code);
      if (!state.stopped) setTimeout(open, 250);
    });
    ws.on('error', () => {});
  };
  open();
  return {
    state,
    close() {
      state.stopped = true;
      state.ws?.terminate();
    },
  };
}

/** Failed answers (no answer, 5xx, or a booking not 201) after `since`, and how long they lasted. */
function errorsAfter(answers: Answer[], since: number) {
  const bad = answers.filter((a) => a.at >= since && (a.status === 0 || a.status >= 400));
  const window = bad.length ? bad.at(-1)!.at - Math.min(since, bad[0].at) : 0;
  const lastBad = bad.length ? bad.at(-1)!.at - since : 0;
  return { bad, window, lastBad };
}

const summary = (answers: Answer[]) => {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const key = `${a.what} ${a.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, v]) => `${k}×${v}`).join(', ');
};

describe.skipIf(!available)('two instances behind HAProxy', () => {
  /**
   * Customers of one load, each with a saved card (as the web saves it, through the LB). Fresh
   * ones per load: a customer holds at most 100 unpaid bookings (set below).
   */
  async function newCustomers(n = 10) {
    const viaLb = {
      app: {
        inject: async (o: { method: string; url: string; headers?: object; payload: object }) => {
          const res = await fetch(`${lb}${o.url}`, {
            method: o.method,
            headers: { ...o.headers, 'content-type': 'application/json' },
            body: JSON.stringify(o.payload),
          });
          const body = await res.text();
          return { statusCode: res.status, body, json: () => JSON.parse(body) as unknown };
        },
      },
    } as unknown as { app: App };
    const customers: CreatedUser[] = [];
    for (let i = 0; i < n; i += 1) {
      const customer = await createUser(target);
      await saveTestCard(viaLb, customer);
      customers.push(customer);
    }
    return customers;
  }
  let staff: CreatedUser;
  let seats: number[];
  let eventId: number;
  let stream: ReturnType<typeof reconnectingStream>;
  let socket: ReturnType<typeof reconnectingSocket>;

  /** Every 201 is a booking in the database, and no (seat, slot) is booked twice. */
  async function checkBookings(booked: { calendar: number; slot: string }[]) {
    const rows = await target.db.execute<{ calendar_id: number; slot: string; n: number }>(
      sql`select calendar_id, slot, count(*)::int as n from reservations
          where cancelled_at is null group by calendar_id, slot`,
    );
    const stored = new Map(rows.rows.map((r) => [`${r.calendar_id} ${r.slot}`, r.n]));
    const lost = booked.filter((b) => !stored.has(`${b.calendar} ${b.slot}`));
    expect(lost).toEqual([]);
    expect(rows.rows.filter((r) => r.n > 1)).toEqual([]);
  }

  /** A change made now reaches the stream and the socket, both now on `instance`. */
  async function changeReaches(instance: string, driftMode: boolean) {
    await until(() => stream.state.instances.at(-1) === instance, 15_000);
    await until(
      () =>
        socket.state.instances.at(-1) === instance &&
        socket.state.ws?.readyState === WebSocket.OPEN,
      15_000,
    );
    const idsBefore = stream.state.ids.length;
    const messagesBefore = socket.state.messages.length;
    const res = await fetch(`${lb}/api/races/events/${eventId}`, {
      method: 'PATCH',
      headers: { ...bearer(staff.token), 'content-type': 'application/json' },
      body: JSON.stringify({ drift_mode: driftMode }),
    });
    expect(res.status).toBe(200);
    await until(() => stream.state.ids.length > idsBefore, 10_000);
    await until(
      () =>
        socket.state.messages
          .slice(messagesBefore)
          .some((m) => m.type === 'model_updated' && m.data?.drift_mode === driftMode),
      10_000,
    );
  }

  beforeAll(async () => {
    const venue = await createVenue(target, { seats: 4 });
    seats = venue.seats.map((s) => s.id);
    // Direct bookings are unpaid: let each customer hold the most the venue setting allows.
    await target.db
      .insert(settings)
      .values({ key: 'max_unpaid_reservations', value: 100 })
      .onConflictDoUpdate({ target: settings.key, set: { value: 100 } });
    staff = await createUser(target, {
      isStaff: true,
      permissions: ['leaderboards.can_manage_race_events', 'reservations.change_reservation'],
    });
    eventId = (
      (await (
        await fetch(`${lb}/api/calendars/${seats[0]}`, { headers: bearer(staff.token) })
      ).json()) as { event: number }
    ).event;
    stream = reconnectingStream(`${lb}/api/events?topics=events`, staff.token);
    socket = reconnectingSocket(
      `${lb.replace('http', 'ws')}/ws/launcher/events/${eventId}/`,
      staff.token,
    );
    await until(() => stream.state.connections > 0 && socket.state.messages.length > 0);
  });
  afterAll(() => {
    stream?.close();
    socket?.close();
  });

  it('HTTPS through HAProxy (haproxy-https.cfg): TLS ended at the proxy, a wss socket, plain HTTP redirected', async () => {
    const dir = fs.mkdtempSync(path.join(target.dataDir, 'tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const pem = path.join(dir, 'paddock.pem');
    fs.writeFileSync(pem, fs.readFileSync(cert, 'utf8') + fs.readFileSync(key, 'utf8'));
    const [tls, plain, lbPort] = [await freePort(), await freePort(), await freePort()];
    let log = '';
    const proxy = spawn('/usr/sbin/haproxy', ['-db', '-f', HAPROXY_CFG, '-f', HAPROXY_HTTPS_CFG], {
      env: {
        ...process.env,
        PADDOCK_LB: `127.0.0.1:${lbPort}`,
        PADDOCK_TLS: `127.0.0.1:${tls}`,
        PADDOCK_HTTP: `127.0.0.1:${plain}`,
        PADDOCK_CERT: pem,
        PADDOCK_A: `127.0.0.1:${ports.a}`,
        PADDOCK_B: `127.0.0.1:${ports.b}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proxy.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const ca = fs.readFileSync(cert);
    const get = (url: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const lib = url.startsWith('https') ? https : http;
        lib
          .get(url, { ca }, (res) => {
            res.resume();
            resolve({ status: res.statusCode!, headers: res.headers });
          })
          .on('error', reject);
      });
    const end = Date.now() + 15_000;
    let answer: { status: number; headers: http.IncomingHttpHeaders } | null = null;
    while (!answer || answer.status !== 200) {
      if (Date.now() > end) throw new Error(`no answer over HTTPS: ${log}`);
      answer = await get(`https://127.0.0.1:${tls}/api/ready`).catch(() => null);
      if (!answer || answer.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer.headers['x-paddock-instance']).toMatch(/^[ab]$/);
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=/);
    const redirect = await get(`http://127.0.0.1:${plain}/book?x=1`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`https://127.0.0.1:${plain}/book?x=1`);
    const messages: { type: string }[] = [];
    const ws = new WebSocket(`wss://127.0.0.1:${tls}/ws/launcher/events/${eventId}/`, {
      headers: bearer(staff.token),
      ca,
    });
    ws.on('message', (m) => messages.push(JSON.parse(String(m)) as { type: string }));
    await until(() => messages.length > 0);
    expect(messages[0].type).toBe('model_updated');
    ws.close();
    proxy.kill('SIGKILL');
  }, 60_000);

  it('SIGTERM one instance under load: nothing lost or doubled, the stream and the socket move over', async () => {
    // The instance the stream is on is the one stopped; the socket follows to it if it is not.
    const victim = stream.state.instances.at(-1)!;
    const survivor = victim === 'a' ? 'b' : 'a';
    while (socket.state.instances.at(-1) !== victim) {
      const count = socket.state.instances.length;
      socket.state.ws?.close(4000);
      await until(() => socket.state.instances.length > count);
    }
    const load = startLoad(await newCustomers(), seats, 2);
    onTestFinished(() => load.stop());
    await new Promise((r) => setTimeout(r, 1500));
    const signalled = Date.now();
    instances.get(victim)!.proc.kill('SIGTERM');
    const exit = await instances.get(victim)!.exited;
    expect(exit.code, instances.get(victim)!.output().slice(-3000)).toBe(0);
    await changeReaches(survivor, true);
    await new Promise((r) => setTimeout(r, 1000));
    await load.stop();

    const { bad, window, lastBad } = errorsAfter(load.answers, signalled);
    console.log(
      `SIGTERM ${victim}: exit after ${exit.at - signalled} ms; ${load.answers.length} answers (${summary(load.answers)}); ` +
        `errors ${bad.length} (${[...new Set(bad.map((b) => `${b.status} ${b.body}`))].slice(0, 4).join(' | ')}) over ${window} ms (last ${lastBad} ms after the signal); ` +
        `stream on ${stream.state.instances.join('→')}, socket on ${socket.state.instances.join('→')} (closed ${socket.state.closeCodes.join(',')})`,
    );
    expect(load.answers.filter((a) => a.at > signalled + 200).length).toBeGreaterThan(10);
    // Drained, not dropped: no request fails at all (before 0080: ~45 answered Fastify's 503).
    const down = downAt.get(victim);
    expect(
      bad,
      `seen DOWN ${down ? `${down - signalled} ms` : 'never'} after the signal; failed: ` +
        JSON.stringify(bad.map((b) => ({ ...b, sent: b.sent - signalled, at: b.at - signalled }))),
    ).toEqual([]);
    expect(socket.state.closeCodes).toContain(1012);
    await checkBookings(load.booked);
  }, 90_000);

  it('SIGKILL the other instance under load (after the first is back): errors end within the health check', async () => {
    const back = stream.state.instances.at(-1) === 'a' ? 'b' : 'a';
    const victim = back === 'a' ? 'b' : 'a';
    instances.set(back, await startServer(target, {}, ports[back]));
    await bothUp();
    const load = startLoad(await newCustomers(), seats, 20);
    onTestFinished(() => load.stop());
    await new Promise((r) => setTimeout(r, 1500));
    const killed = Date.now();
    instances.get(victim)!.proc.kill('SIGKILL');
    await instances.get(victim)!.exited;
    await changeReaches(back, false);
    await new Promise((r) => setTimeout(r, 1000));
    await load.stop();

    const { bad, window, lastBad } = errorsAfter(load.answers, killed);
    console.log(
      `SIGKILL ${victim}: ${load.answers.length} answers (${summary(load.answers)}); ` +
        `errors ${bad.length} (${summary(bad)}) over ${window} ms (last ${lastBad} ms after the kill); ` +
        `HAProxy said DOWN ${(downAt.get(victim) ?? NaN) - killed} ms after the kill (checks every ${INTER_MS} ms, down after ${FALL}); ` +
        `stream on ${stream.state.instances.join('→')}, socket on ${socket.state.instances.join('→')}`,
    );
    // Causal, not timed (a busy test machine stalls this process for seconds): only requests
    // already on their way to the killed instance before HAProxy's checks (every INTER_MS, down
    // after FALL) marked it DOWN may fail; none sent after that does.
    const down = downAt.get(victim);
    expect(down, haproxyLog.slice(-2000)).toBeGreaterThan(killed);
    expect(bad.filter((b) => b.sent > down!)).toEqual([]);
    expect(load.answers.filter((a) => a.sent > down!).length).toBeGreaterThan(10);
    await checkBookings(load.booked);
  }, 90_000);
});
