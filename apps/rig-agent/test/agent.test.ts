// The rig agent against a real Paddock server (built with the server's own test helpers, on a
// database cloned from the migrated template), with the fake sim as its launch command and a
// temp folder as AC's cfg folder. The agent reaches the server through a TCP proxy that can be
// cut like a venue's network; staff watch through their own socket, straight to the server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { iniSection, parseIni } from '@paddock/ac-protocol/ini';
import { createVenue } from '../../server/src/test/booking-factories';
import { cars, skins, tracks } from '../../server/src/db/schema/laps';
import { FAKE_SIM, RigHarness, alive, sleep, until } from './harness';

const h = new RigHarness();
const { api, network, rig, signal, watch } = h;
let venue: Awaited<ReturnType<typeof createVenue>>;
let track: number;
let car: number;
let skin: number;

const eventOf = async (calendar: number): Promise<number> =>
  (await api('GET', `/api/calendars/${calendar}`)).json().event;

beforeAll(async () => {
  await h.start({
    tmpPrefix: 'paddock-rig-test-',
    permissions: ['leaderboards.can_manage_race_events', 'rigs.change_rig'],
  });
  venue = await createVenue(h.t, { seats: 3 });
  [{ id: track }] = await h.t.db
    .insert(tracks)
    .values({ sim: 'ac', key: 'ks_nurburgring', layout: 'layout_gp_a', name: 'Nürburgring' })
    .returning({ id: tracks.id });
  [{ id: car }] = await h.t.db
    .insert(cars)
    .values({ sim: 'ac', key: 'ks_mazda_mx5_cup', name: 'Mazda MX-5 Cup' })
    .returning({ id: cars.id });
  [{ id: skin }] = await h.t.db
    .insert(skins)
    .values({ carId: car, key: '04_yellow', name: 'Yellow' })
    .returning({ id: skins.id });
});

// Each test's agents (and their sims), proxies and staff sockets end with it.
afterEach(h.runCleanups);

afterAll(h.stop);

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
      const again = await fetch(`${h.url}/api/laps`, {
        method: 'POST',
        headers: { authorization: `Rig ${r.config.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...lap(0), client_lap_id: id }),
      });
      expect(again.status).toBe(200);
    }
    const stored = await h.t.db.execute<{ lap_ms: number }>(
      sql`select lap_ms from laps where calendar_id = ${seat} order by lap_ms`,
    );
    expect(stored.rows.map((row) => row.lap_ms)).toEqual([120_001, 120_002, 120_003]);
    expect(fs.readFileSync(r.agent.queue.file, 'utf8')).toBe('');
  });

  it('a restarted agent finds the sim it started: no second sim, and SESSION_EXIT still stops it', async () => {
    const seat = venue.seats[0].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, { track, cars: [car] });
    const first = await rig(seat, h.url);
    const staffView = await watch(eventId);
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => first.starts().length === 1, 15_000, 'the fake sim to start');
    await until(() => staffView.entry(seat)?.state === 'running', 10_000, 'running');
    const [{ pid }] = first.starts();
    await first.agent.close(); // the game keeps running
    expect(alive(pid)).toBe(true);

    const second = await rig(seat, h.url, first);
    expect(second.log).toContain('Assetto Corsa is still running from before: watching it');
    await signal(eventId, { signal: 'SESSION_START' });
    await signal(eventId, { signal: 'MP_BRIEF' });
    await until(() => second.briefs.length === 1, 10_000, 'the brief');
    expect(second.starts()).toHaveLength(1);
    await signal(eventId, { signal: 'SESSION_EXIT' });
    await until(() => !alive(pid), 10_000, 'the fake sim to end');
    await until(() => staffView.entry(seat)?.state === 'none', 10_000, 'exited');
  });

  it('follows the game a launcher started and left running: running while it runs, Exit closes it, a restarted agent finds it', async () => {
    const seat = venue.seats[2].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, { track, cars: [car] });
    // The launch command is a launcher (as steam.exe -applaunch): it starts the game, a process
    // of its own image name, and exits.
    const r = await rig(seat, h.url, undefined, 'ac', true);
    expect(r.config.launch.gameProcess).toBe(`acs-seat${seat}.exe`);
    const staffView = await watch(eventId);
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => staffView.entry(seat)?.state === 'running', 15_000, 'running');
    await until(() => r.starts().length === 1, 5000, 'the game to start');
    const [{ pid, launcher }] = r.starts();
    expect(launcher).not.toBeNull();
    await until(() => !alive(launcher!), 5000, 'the launcher to exit');
    // The launcher is gone, the game runs: so does the seat.
    await sleep(1000);
    expect(alive(pid)).toBe(true);
    expect(r.agent.state).toBe('launched');
    expect(staffView.entry(seat)?.state).toBe('running');
    expect(r.log.filter((l) => l.includes('exited'))).toEqual([]);

    // The agent restarts (an update): it finds the game, not the launcher, and Exit closes it.
    await r.agent.close();
    const again = await rig(seat, h.url, r, 'ac', true);
    expect(again.log).toContain('Assetto Corsa is still running from before: watching it');
    await signal(eventId, { signal: 'SESSION_EXIT' });
    await until(() => !alive(pid), 10_000, 'Exit to close the game');
    await until(() => staffView.entry(seat)?.state === 'none', 10_000, 'exited');

    // Started again, the game quits by itself: the seat says so.
    await signal(eventId, { signal: 'SESSION_START' });
    await until(() => again.starts().length === 2, 15_000, 'the second game');
    await until(() => staffView.entry(seat)?.state === 'running', 10_000, 'running again');
    // The agent has found the game (the pid it keeps for a restart is the game's, not the
    // launcher's); then the driver quits it.
    const second = again.starts()[1].pid;
    const pidFile = path.join(again.config.dataDir, 'sim.pid');
    await until(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') === String(second),
      5000,
      'the game found',
    );
    process.kill(second, 'SIGTERM');
    await until(() => staffView.entry(seat)?.state === 'none', 10_000, 'the quit seen');
    expect(again.agent.state).toBe('exited');
  });

  it('runs as the paddock-rig command', async () => {
    const seat = venue.seats[1].id;
    const eventId = await eventOf(seat);
    await api('PATCH', `/api/races/events/${eventId}`, { track, cars: [car] });
    const made = await api('POST', '/api/rig_keys', { calendar: seat, label: 'CLI' });
    const dir = fs.mkdtempSync(path.join(h.tmp, 'cli-'));
    const cfg = path.join(dir, 'cfg');
    const simLog = path.join(dir, 'fake-sim.jsonl');
    fs.writeFileSync(
      path.join(dir, 'rig.json'),
      JSON.stringify({ server: h.url, key: made.json().key }),
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
    h.cleanups.push(() => child.kill('SIGKILL'));
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
    const r = await rig(guestSeat, h.url);
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
