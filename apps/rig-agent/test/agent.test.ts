// The rig agent against a real Paddock server (built with the server's own test helpers, on a
// database cloned from the migrated template), with the fake sim as its launch command and a
// temp folder as AC's cfg folder. The agent reaches the server through a TCP proxy that can be
// cut like a venue's network; staff watch through their own socket, straight to the server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { sql } from 'drizzle-orm';
import { iniSection, parseIni } from '@paddock/ac-protocol/ini';
import type { Entry, RaceEvent } from '@paddock/contract/races';
import { createTestApp, type TestApp } from '../../server/src/test/test-app';
import { bearer, createUser, type CreatedUser } from '../../server/src/test/factories';
import { createVenue } from '../../server/src/test/booking-factories';
import { cars, skins, tracks } from '../../server/src/db/schema/laps';
import { RigAgent } from '../src/agent';
import { AssettoCorsaAdapter } from '../src/ac-adapter';
import type { AgentConfig } from '../src/config';

const FAKE_SIM = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-sim.mjs');

let t: TestApp;
let staff: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
let port: number;
let tmp: string;
let track: number;
let car: number;
let skin: number;
const cleanups: Array<() => unknown> = [];

async function until(check: () => boolean | Promise<boolean>, ms = 15_000, what = 'condition') {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP proxy to the server: `cut()` drops every connection and refuses new ones. */
async function network() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const proxyPort = (server.address() as AddressInfo).port;
  const handle = {
    url: `http://127.0.0.1:${proxyPort}`,
    cut: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
    restore: () => new Promise<void>((r) => server.listen(proxyPort, '127.0.0.1', () => r())),
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
  cleanups.push(handle.close);
  return handle;
}

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(staff.token), ...(payload ? { payload } : {}) });

/** Staff's view of an event: the launcher socket with a ticket, merging model_updated. */
async function watch(eventId: number) {
  const { ticket } = (await api('POST', `/api/races/events/${eventId}/ticket`)).json();
  const ws = new WebSocket(
    `ws://127.0.0.1:${port}/ws/launcher/events/${eventId}/?ticket=${ticket}`,
  );
  const view = { event: null as RaceEvent | null, ws };
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'model_updated') view.event = { ...(view.event as RaceEvent), ...m.data };
  });
  await new Promise((r) => ws.once('open', r));
  await until(() => view.event !== null, 5000, 'the whole event');
  cleanups.push(() => ws.terminate());
  return {
    ...view,
    entry: (calendar: number): Entry | undefined =>
      view.event?.entries.find((e) => e.calendar === calendar),
  };
}

/** A rig: a key for the seat, an agent on it with the fake sim and its own temp folders. */
async function rig(seat: number, server: string, again?: { config: AgentConfig }) {
  const res = again
    ? null
    : await api('POST', '/api/rig_keys', { calendar: seat, label: `Rig ${seat}` });
  if (res) expect(res.statusCode).toBe(201);
  const dir = again
    ? path.dirname(again.config.dataDir)
    : fs.mkdtempSync(path.join(tmp, `rig-${seat}-`));
  const acCfgDir = path.join(dir, 'Documents', 'Assetto Corsa', 'cfg');
  const simLog = path.join(dir, 'fake-sim.jsonl');
  const config: AgentConfig = {
    server,
    key: again ? again.config.key : res!.json().key,
    dataDir: path.join(dir, 'data'),
    acCfgDir,
    launch: { command: process.execPath, args: [FAKE_SIM, acCfgDir, simLog] },
    lapsFile: path.join(dir, 'laps.jsonl'),
    retryMs: 200,
    retryMaxMs: 1000,
  };
  const log: string[] = [];
  const briefs: string[] = [];
  const agent = new RigAgent({
    config,
    adapter: new AssettoCorsaAdapter(config),
    log: (line) => log.push(line),
    onBrief: (text) => briefs.push(text),
    lapRetryMs: 300,
  });
  cleanups.push(() => agent.close({ stopSim: true }));
  agent.start();
  await until(() => agent.connected, 15_000, 'the agent to connect');
  /** The fake sim's starts, one line per process. */
  const starts = (): Array<{ pid: number; track: string }> =>
    fs.existsSync(simLog)
      ? fs
          .readFileSync(simLog, 'utf8')
          .split('\n')
          .slice(0, -1) // only whole lines: the fake sim may be writing its first one right now
          .map((l) => JSON.parse(l))
      : [];
  return { agent, config, acCfgDir, starts, log, briefs };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const eventOf = async (calendar: number): Promise<number> =>
  (await api('GET', `/api/calendars/${calendar}`)).json().event;

const signal = async (eventId: number, body: object) => {
  const res = await api('POST', `/api/races/events/${eventId}/signal`, body);
  expect(res.statusCode).toBe(202);
};

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-rig-test-'));
  venue = await createVenue(t, { seats: 3 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['leaderboards.can_manage_race_events', 'rigs.change_rig'],
  });
  [{ id: track }] = await t.db
    .insert(tracks)
    .values({ sim: 'ac', key: 'ks_nurburgring', layout: 'layout_gp_a', name: 'Nürburgring' })
    .returning({ id: tracks.id });
  [{ id: car }] = await t.db
    .insert(cars)
    .values({ sim: 'ac', key: 'ks_mazda_mx5_cup', name: 'Mazda MX-5 Cup' })
    .returning({ id: cars.id });
  [{ id: skin }] = await t.db
    .insert(skins)
    .values({ carId: car, key: '04_yellow', name: 'Yellow' })
    .returning({ id: skins.id });
});

// Each test's agents (and their sims), proxies and staff sockets end with it.
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

afterAll(async () => {
  await t?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the rig agent', () => {
  it('writes race.ini and assists.ini, launches once, reports its states, and stops on SESSION_EXIT', async () => {
    const seat = venue.seats[0].id;
    const eventId = await eventOf(seat);
    const edited = await api('PATCH', `/api/races/events/${eventId}`, {
      track,
      cars: [car],
      sessions: [
        { type: 'PRACTICE', duration: 15 },
        { type: 'RACE', duration: 5, duration_is_laps: true },
      ],
      entries: [{ calendar: seat, car, skin }],
      assists: ['abs', 'ideal_line'],
      penalties: true,
      fixed_setup: true,
    });
    expect(edited.statusCode).toBe(200);
    const net = await network();
    const r = await rig(seat, net.url);
    const staffView = await watch(eventId);
    expect(staffView.entry(seat)?.state).toBe('none');

    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => staffView.entry(seat)?.state === 'running', 15_000, 'running');
    expect(staffView.entry(seat)).toMatchObject({ initialized: true, launched: true });
    // "launched" is said once the process runs; the fake sim notes its start just after.
    await until(() => r.starts().length === 1, 5000, 'the fake sim to start');
    const [{ pid, track: simTrack }] = r.starts();
    expect(alive(pid)).toBe(true);
    expect(simTrack).toBe('ks_nurburgring');
    expect(r.agent.state).toBe('launched');

    // race.ini and assists.ini say what the event says.
    const race = parseIni(fs.readFileSync(path.join(r.acCfgDir, 'race.ini'), 'utf8'));
    expect(race.problems).toEqual([]);
    const value = (section: string, key: string) => iniSection(race, section)?.values.get(key);
    expect(value('RACE', 'TRACK')).toBe('ks_nurburgring');
    expect(value('RACE', 'CONFIG_TRACK')).toBe('layout_gp_a');
    expect(value('RACE', 'MODEL')).toBe('ks_mazda_mx5_cup');
    expect(value('RACE', 'SKIN')).toBe('04_yellow');
    expect(value('RACE', 'FIXED_SETUP')).toBe('1');
    expect(value('RACE', 'PENALTIES')).toBe('1');
    expect(value('RACE', 'RACE_LAPS')).toBe('5');
    expect(value('CAR_0', 'DRIVER_NAME')).toBe(venue.seats[0].name);
    expect(value('SESSION_0', 'TYPE')).toBe('1');
    expect(value('SESSION_0', 'DURATION_MINUTES')).toBe('15');
    expect(value('SESSION_0', 'SPAWN_SET')).toBe('PIT');
    expect(value('SESSION_1', 'TYPE')).toBe('3');
    expect(value('SESSION_1', 'LAPS')).toBe('5');
    expect(value('SESSION_1', 'SPAWN_SET')).toBe('START');
    expect(iniSection(race, 'SESSION_2')).toBeUndefined();
    expect(value('REMOTE', 'ACTIVE')).toBe('0');
    const assists = parseIni(fs.readFileSync(path.join(r.acCfgDir, 'assists.ini'), 'utf8'));
    const aid = (key: string) => iniSection(assists, 'ASSISTS')?.values.get(key);
    expect([
      aid('ABS'),
      aid('IDEAL_LINE'),
      aid('TRACTION_CONTROL'),
      aid('STABILITY_CONTROL'),
    ]).toEqual(['1', '1', '0', '0']);

    // A repeated SESSION_START starts no second sim; MP_BRIEF describes the race.
    await signal(eventId, { signal: 'SESSION_START' });
    await signal(eventId, { signal: 'MP_BRIEF' });
    await until(() => r.briefs.length === 1, 10_000, 'the brief');
    await r.agent.idle();
    expect(r.briefs[0]).toContain(
      'Nürburgring (layout_gp_a) · Mazda MX-5 Cup · Practice 15 min, Race 5 laps',
    );
    expect(r.starts()).toHaveLength(1);
    expect(staffView.entry(seat)?.state).toBe('running');

    // SESSION_EXIT: the sim is gone and the seat says so.
    await signal(eventId, { signal: 'SESSION_EXIT' });
    await until(() => staffView.entry(seat)?.state === 'none', 15_000, 'exited');
    expect(staffView.entry(seat)?.exited).toBe(true);
    await until(() => !alive(pid), 5000, 'the fake sim to end');
    expect(r.agent.state).toBe('exited');

    // A SESSION_START that leaves this seat out starts nothing.
    await signal(eventId, { signal: 'SESSION_START', excluded_calendars: [seat] });
    await sleep(500);
    await r.agent.idle();
    expect(r.starts()).toHaveLength(1);
    expect(staffView.entry(seat)?.state).toBe('none');

    // RELOAD: a new connection, the state said again.
    await signal(eventId, { signal: 'RELOAD' });
    await until(() => r.log.filter((l) => l.startsWith('connected')).length >= 2, 10_000, 'reload');
    await until(() => r.agent.connected, 10_000, 'reconnected');
  });

  it('keeps laps and states while Paddock is unreachable and delivers each once when it is back', async () => {
    const seat = venue.seats[1].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, {
      track,
      cars: [car],
      entries: [{ calendar: seat, car, skin }],
    });
    const net = await network();
    const r = await rig(seat, net.url);
    const staffView = await watch(eventId);
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => staffView.entry(seat)?.state === 'running', 15_000, 'running');
    await until(() => r.starts().length === 1, 5000, 'the fake sim to start');
    const [{ pid }] = r.starts();

    // The network goes; meanwhile three laps are driven and the game is closed on the rig.
    await net.cut();
    await until(() => !r.agent.connected, 5000, 'the agent to see the cut');
    const lap = (i: number) => ({
      sim: 'ac' as const,
      track: 'ks_nurburgring',
      layout: 'layout_gp_a',
      car: 'ks_mazda_mx5_cup',
      lap_ms: 120_000 + i,
      recorded_at: new Date().toISOString(),
    });
    // Two laps come from the sim's laps file (as an in-game app writes them), one is handed over.
    const { sim: _sim, ...fromFile } = lap(1);
    fs.appendFileSync(r.config.lapsFile!, `${JSON.stringify(fromFile)}\n`);
    fs.appendFileSync(r.config.lapsFile!, `${JSON.stringify({ ...lap(2), sim: 'ac' })}\n`);
    await until(() => r.agent.queue.list('lap').length === 2, 5000, 'laps from the file');
    r.agent.submitLap(lap(3));
    const ids = r.agent.queue.list('lap').map((i) => i.lap.client_lap_id);
    expect(ids).toHaveLength(3);
    process.kill(pid, 'SIGTERM');
    await until(() => r.agent.state === 'exited', 5000, 'the agent to see the sim end');
    await sleep(700); // a few reconnect and lap retries fail meanwhile
    expect(r.agent.queue.list('lap').map((i) => i.lap.lap_ms)).toEqual([120_001, 120_002, 120_003]);
    expect(r.agent.queue.list('state').map((i) => i.state)).toEqual(['exited']);
    expect(staffView.entry(seat)?.state).toBe('running');
    // The queue is on disk: a restarted agent would find it.
    expect(fs.readFileSync(r.agent.queue.file, 'utf8')).toContain(ids[2]);

    await net.restore();
    await until(() => r.agent.queue.size === 0, 15_000, 'the queue to empty');
    await until(() => staffView.entry(seat)?.state === 'none', 10_000, 'exited delivered');
    // Sending again (a retry after a lost answer) stores nothing more.
    for (const id of ids) {
      const again = await fetch(`http://127.0.0.1:${port}/api/laps`, {
        method: 'POST',
        headers: { authorization: `Rig ${r.config.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...lap(0), client_lap_id: id }),
      });
      expect(again.status).toBe(200);
    }
    const stored = await t.db.execute<{ lap_ms: number }>(
      sql`select lap_ms from laps where calendar_id = ${seat} order by lap_ms`,
    );
    expect(stored.rows.map((row) => row.lap_ms)).toEqual([120_001, 120_002, 120_003]);
    expect(fs.readFileSync(r.agent.queue.file, 'utf8')).toBe('');
  });

  it('a restarted agent finds the sim it started: no second sim, and SESSION_EXIT still stops it', async () => {
    const seat = venue.seats[0].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, { track, cars: [car] });
    const first = await rig(seat, `http://127.0.0.1:${port}`);
    const staffView = await watch(eventId);
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => first.starts().length === 1, 15_000, 'the fake sim to start');
    await until(() => staffView.entry(seat)?.state === 'running', 10_000, 'running');
    const [{ pid }] = first.starts();
    await first.agent.close(); // the game keeps running
    expect(alive(pid)).toBe(true);

    const second = await rig(seat, `http://127.0.0.1:${port}`, first);
    expect(second.log).toContain('Assetto Corsa is still running from before: watching it');
    await signal(eventId, { signal: 'SESSION_START' });
    await signal(eventId, { signal: 'MP_BRIEF' });
    await until(() => second.briefs.length === 1, 10_000, 'the brief');
    expect(second.starts()).toHaveLength(1);
    await signal(eventId, { signal: 'SESSION_EXIT' });
    await until(() => !alive(pid), 10_000, 'the fake sim to end');
    await until(() => staffView.entry(seat)?.state === 'none', 10_000, 'exited');
  });

  it('runs as the paddock-rig command', async () => {
    const seat = venue.seats[1].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, { track, cars: [car] });
    const made = await api('POST', '/api/rig_keys', { calendar: seat, label: 'CLI' });
    const dir = fs.mkdtempSync(path.join(tmp, 'cli-'));
    const cfg = path.join(dir, 'cfg');
    const simLog = path.join(dir, 'fake-sim.jsonl');
    fs.writeFileSync(
      path.join(dir, 'rig.json'),
      JSON.stringify({ server: `http://127.0.0.1:${port}`, key: made.json().key }),
    );
    const bin = path.join(path.dirname(FAKE_SIM), '..', 'bin', 'paddock-rig.mjs');
    const child = spawn(
      process.execPath,
      [
        bin,
        ...['--config', path.join(dir, 'rig.json'), '--data-dir', path.join(dir, 'data')],
        ...['--ac-cfg-dir', cfg, '--launch', process.execPath],
        ...['--launch-arg', FAKE_SIM, '--launch-arg', cfg, '--launch-arg', simLog],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    cleanups.push(() => child.kill('SIGKILL'));
    await until(() => out.includes(`connected to event ${eventId}`), 30_000, 'the CLI to connect');
    const staffView = await watch(eventId);
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => staffView.entry(seat)?.state === 'running', 15_000, 'running');
    await signal(eventId, { signal: 'SESSION_EXIT' });
    await until(() => staffView.entry(seat)?.state === 'none', 15_000, 'exited');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('follows its seat into a party (moved_to) and back out (4001)', async () => {
    const [hostSeat, guestSeat] = [venue.seats[2].id, venue.seats[0].id];
    const own = await eventOf(guestSeat);
    const r = await rig(guestSeat, `http://127.0.0.1:${port}`);
    await until(() => r.agent.eventId === own, 5000, 'own event');
    const party = await api('POST', '/api/races/parties/host', { calendar: hostSeat });
    expect(party.statusCode).toBe(201);
    const partyEvent = party.json().host_event as number;
    const member = await api('POST', '/api/races/parties/members', {
      party: party.json().id,
      calendar: guestSeat,
    });
    expect(member.statusCode).toBe(201);
    await until(() => r.agent.event?.id === partyEvent && r.agent.connected, 10_000, 'moved');
    expect(r.agent.event?.party).toBe(party.json().id);
    expect(r.log).toContain(`the seat joined a party: moving to event ${partyEvent}`);
    const left = await api('DELETE', `/api/races/parties/members/${member.json().id}`);
    expect(left.statusCode).toBe(204);
    await until(() => r.agent.event?.id === own && r.agent.connected, 10_000, 'back to own');
    expect(r.agent.event?.moved_to).toBeNull();
    expect(r.log).toContain(
      `event ${partyEvent} closed the socket (4001): reading the seat's event again`,
    );
  });
});
