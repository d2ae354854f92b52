import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeServerMessage, encodeMessage, type AcServerMessage } from '../codec';
import { writeServerConfig, type AcServerRace } from '../server-config';
import { hotlapRace, partyRaceByLaps, timedRaceWeekend } from '../test-fixtures/example-races';
import { readServerConfig } from './read-server-config';
import {
  FakeAcServerConfigError,
  startFakeAcServer,
  type FakeAcServerHandle,
  type FakeAcServerReplay,
  type FakeAcServerScriptStep,
} from './fake-acserver';

const fixtures = path.join(import.meta.dirname, '..', 'test-fixtures');
const raceJson = fs.readFileSync(path.join(fixtures, 'server-race-monza.json'), 'utf8');
const qualifyJson = fs.readFileSync(path.join(fixtures, 'server-qualify-monza.json'), 'utf8');

/** Paddock's side in these tests: a UDP socket that collects what the fake server sends. */
async function pluginListener() {
  const socket = dgram.createSocket('udp4');
  const messages: AcServerMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (datagram) => {
    const result = decodeServerMessage(datagram);
    if (!result.ok) throw new Error(`unreadable: ${result.error.detail}`);
    messages.push(result.message);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    port,
    messages,
    /** Resolves with the first message (after `from`) that matches. */
    async next<T extends AcServerMessage['type']>(
      type: T,
      from = 0,
    ): Promise<Extract<AcServerMessage, { type: T }>> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = messages.slice(from).find((m) => m.type === type);
        if (found) return found as Extract<AcServerMessage, { type: T }>;
        if (Date.now() > deadline) throw new Error(`no ${type} within 5 s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    send(serverPort: number, bytes: Buffer) {
      socket.send(bytes, serverPort, '127.0.0.1');
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

type Listener = Awaited<ReturnType<typeof pluginListener>>;
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setUp(
  race: AcServerRace,
  replay?: FakeAcServerReplay,
  script?: FakeAcServerScriptStep[],
) {
  const listener = await pluginListener();
  cleanup.push(listener.close);
  const files = writeServerConfig({
    ...race,
    plugin: { address: `127.0.0.1:${listener.port}`, localPort: 11000 },
  });
  const server = await startFakeAcServer({ ...files, commandPort: 0, replay, script });
  cleanup.push(server.stop);
  return { listener, server };
}

/** The race of the fixture as Paddock would have configured it: its 17 cars, as entered. */
function monzaRace(json: string): AcServerRace {
  const results = JSON.parse(json) as {
    Cars: Array<{
      CarId: number;
      Model: string;
      Skin: string;
      Driver: { Name: string; Guid: string };
    }>;
  };
  return {
    ...partyRaceByLaps,
    fixedSetup: undefined,
    entries: results.Cars.sort((a, b) => a.CarId - b.CarId).map((c) => ({
      model: c.Model,
      skin: c.Skin,
      guid: c.Driver.Guid,
      driverName: c.Driver.Name,
    })),
  };
}

describe('the fake server reads generated configs', () => {
  it.each([
    ['hotlap', hotlapRace],
    ['party race by laps', partyRaceByLaps],
    ['timed race with practice and qualifying', timedRaceWeekend],
  ])('accepts the %s', (_name, race) => {
    const { serverCfg, entryList } = writeServerConfig(race);
    const read = readServerConfig(serverCfg, entryList);
    expect(read.ok ? [] : read.problems).toEqual([]);
  });

  it('sees the sessions in acServer order with their lengths', () => {
    const { serverCfg, entryList } = writeServerConfig(timedRaceWeekend);
    const read = readServerConfig(serverCfg, entryList);
    if (!read.ok) throw new Error(read.problems.join());
    expect(read.config.sessions.map((s) => [s.type, s.minutes, s.laps])).toEqual([
      ['PRACTICE', 25, 0],
      ['QUALIFY', 10, 0],
      ['RACE', 20, 0],
    ]);
    expect(read.config.entries.map((e) => e.carId)).toEqual([0, 1]);
  });

  const good = writeServerConfig(partyRaceByLaps);
  const refusals: Array<[string, string, string, string]> = [
    [
      'an unknown key',
      good.serverCfg.replace('MAX_CLIENTS=3', 'MAX_CLIENT=3'),
      good.entryList,
      'unknown key MAX_CLIENT',
    ],
    [
      'a missing [SERVER]',
      good.serverCfg.replace('[SERVER]', '[SERVR]'),
      good.entryList,
      '[SERVER]',
    ],
    [
      'no session section',
      good.serverCfg.replace(/\[RACE\][^[]*/, ''),
      good.entryList,
      'no session',
    ],
    [
      'more entries than MAX_CLIENTS',
      good.serverCfg.replace('MAX_CLIENTS=3', 'MAX_CLIENTS=2'),
      good.entryList,
      '3 cars for MAX_CLIENTS=2',
    ],
    [
      'a car that is not in CARS',
      good.serverCfg.replace('CARS=lotus_exos_125;ks_mazda_mx5_cup', 'CARS=lotus_exos_125'),
      good.entryList,
      'MODEL ks_mazda_mx5_cup is not in CARS',
    ],
    [
      'a gap in the car list',
      good.serverCfg,
      good.entryList.replace('[CAR_1]', '[CAR_7]'),
      '[CAR_7]',
    ],
    [
      'an unknown entry key',
      good.serverCfg,
      good.entryList.replace('BALLAST=15', 'BALAST=15'),
      'unknown key BALAST',
    ],
    [
      'a race with neither laps nor time',
      good.serverCfg.replace('LAPS=10', 'LAPS=0'),
      good.entryList,
      'neither LAPS nor TIME',
    ],
    [
      'a non-number',
      good.serverCfg.replace('TCP_PORT=9600', 'TCP_PORT=96OO'),
      good.entryList,
      'TCP_PORT=96OO is not an integer',
    ],
    [
      'ABS out of range',
      good.serverCfg.replace('ABS_ALLOWED=1', 'ABS_ALLOWED=3'),
      good.entryList,
      'ABS_ALLOWED=3',
    ],
    [
      'an unknown section',
      good.serverCfg + '[EXTRA]\r\nA=1\r\n',
      good.entryList,
      'unknown section [EXTRA]',
    ],
    ['an empty entry list', good.serverCfg, '', 'no [CAR_n] sections'],
  ];
  it.each(refusals)('refuses %s', async (_name, serverCfg, entryList, expected) => {
    const read = readServerConfig(serverCfg, entryList);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problems.join('\n')).toContain(expected);
    await expect(startFakeAcServer({ serverCfg, entryList, commandPort: 0 })).rejects.toThrow(
      FakeAcServerConfigError,
    );
  });
});

describe('replaying a real results file', () => {
  it('sends the session, the cars, then every lap of the race in order, then END_SESSION', async () => {
    const { listener, server } = await setUp(monzaRace(raceJson), {
      resultsJson: raceJson,
      speed: 20_000,
      resultsFileName: '2015_12_13_21_31_RACE.json',
    });
    await server.replayDone;
    const end = await listener.next('END_SESSION');
    expect(end.resultsFile).toBe('2015_12_13_21_31_RACE.json');

    const m = listener.messages;
    expect(m[0]).toEqual({ type: 'VERSION', version: 4 });
    expect(m[1]).toMatchObject({ type: 'NEW_SESSION', track: 'monza', sessionType: 3, laps: 10 });
    const connections = m.filter((x) => x.type === 'NEW_CONNECTION');
    expect(connections.slice(0, 17).map((c) => c.carId)).toEqual([...Array(17).keys()]);
    expect(connections[0]).toMatchObject({ driverName: 'Lwi', driverGuid: '76561198078712985' });

    const laps = m.filter((x) => x.type === 'LAP_COMPLETED');
    expect(laps).toHaveLength(82);
    // Read off the fixture by hand: the first eight laps and the last one.
    expect(laps.slice(0, 8).map((l) => [l.carId, l.lapTimeMs, l.cuts])).toEqual([
      [9, 104357, 0],
      [10, 105967, 0],
      [12, 108041, 0],
      [4, 120773, 0],
      [2, 123012, 0],
      [8, 140507, 0],
      [7, 161793, 0],
      [3, 188254, 0],
    ]);
    expect(laps.at(-1)).toMatchObject({ carId: 12, lapTimeMs: 138768, cuts: 0 });
    expect(m.at(-1)?.type).toBe('END_SESSION');

    // Car 10 is entered for Rad Rides, but Manolo Polonioli drove its first laps: the change of
    // driver is announced before his first lap.
    const firstLapOf10 = m.findIndex((x) => x.type === 'LAP_COMPLETED' && x.carId === 10);
    expect(m.slice(firstLapOf10 - 2, firstLapOf10)).toMatchObject([
      { type: 'CONNECTION_CLOSED', carId: 10, driverName: 'Rad Rides' },
      { type: 'NEW_CONNECTION', carId: 10, driverName: 'Manolo Polonioli' },
    ]);

    // The leaderboard of the last lap: all 17 cars, the leader with the most laps.
    const last = laps.at(-1)!;
    expect(last.leaderboard).toHaveLength(17);
    expect(last.leaderboard[0].laps).toBeGreaterThanOrEqual(last.leaderboard[1].laps);
  });

  it('sends the cuts of a qualifying session', async () => {
    const { listener, server } = await setUp(
      { ...monzaRace(qualifyJson), sessions: { qualify: { minutes: 20 } } },
      { resultsJson: qualifyJson, speed: 50_000 },
    );
    await server.replayDone;
    await listener.next('END_SESSION');
    const laps = listener.messages.filter((x) => x.type === 'LAP_COMPLETED');
    expect(laps).toHaveLength(101);
    expect(laps.slice(0, 5).map((l) => [l.carId, l.lapTimeMs, l.cuts])).toEqual([
      [0, 132116, 4],
      [2, 145288, 3],
      [4, 118707, 2],
      [2, 109455, 1],
      [0, 257466, 4],
    ]);
    expect(listener.messages[1]).toMatchObject({ type: 'NEW_SESSION', sessionType: 2 });
  });

  it('writes the results file into resultsDir and names it in END_SESSION', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-acserver-'));
    cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const { listener, server } = await setUp(monzaRace(raceJson), {
      resultsJson: raceJson,
      speed: 100_000,
      resultsDir: dir,
    });
    await server.replayDone;
    const end = await listener.next('END_SESSION');
    expect(end.resultsFile).toBe(path.join(dir, 'RACE.json'));
    expect(fs.readFileSync(end.resultsFile, 'utf8')).toBe(raceJson);
  });
});

describe('answering commands', () => {
  let server: FakeAcServerHandle;
  let listener: Listener;

  async function command<T extends AcServerMessage['type']>(bytes: Buffer, reply: T) {
    const from = listener.messages.length;
    listener.send(server.commandPort, bytes);
    return listener.next(reply, from);
  }

  it('GET_CAR_INFO, GET_SESSION_INFO, SET_SESSION_INFO, KICK_USER, NEXT and RESTART_SESSION', async () => {
    ({ listener, server } = await setUp(timedRaceWeekend));
    await listener.next('CLIENT_LOADED');

    const info = await command(encodeMessage({ type: 'GET_CAR_INFO', carId: 1 }), 'CAR_INFO');
    expect(info).toEqual({
      type: 'CAR_INFO',
      carId: 1,
      isConnected: true,
      carModel: 'tatuusfa1',
      carSkin: '',
      driverName: 'Ben Okafor',
      driverTeam: '',
      driverGuid: '76561198000000002',
    });

    const current = await command(
      encodeMessage({ type: 'GET_SESSION_INFO', sessionIndex: -1 }),
      'SESSION_INFO',
    );
    expect(current).toMatchObject({
      sessionIndex: 0,
      sessionCount: 3,
      name: 'Practice',
      timeMinutes: 25,
    });
    expect(
      await command(encodeMessage({ type: 'GET_SESSION_INFO', sessionIndex: 9 }), 'ERROR'),
    ).toMatchObject({ message: expect.stringContaining('out of bounds') });

    const set = await command(
      encodeMessage({
        type: 'SET_SESSION_INFO',
        sessionIndex: 2,
        name: 'Sprint',
        sessionType: 3,
        laps: 5,
        time: 0,
        waitTimeSeconds: 30,
      }),
      'SESSION_INFO',
    );
    expect(set).toMatchObject({ sessionIndex: 2, name: 'Sprint', laps: 5, timeMinutes: 0 });

    const next = listener.messages.length;
    const started = await command(encodeMessage({ type: 'NEXT_SESSION' }), 'NEW_SESSION');
    expect(started).toMatchObject({ sessionIndex: 1, currentSessionIndex: 1, name: 'Qualify' });
    expect(listener.messages.slice(next).map((x) => x.type)).toEqual([
      'END_SESSION',
      'NEW_SESSION',
    ]);
    expect(server.currentSessionIndex()).toBe(1);

    const restarted = await command(encodeMessage({ type: 'RESTART_SESSION' }), 'NEW_SESSION');
    expect(restarted).toMatchObject({ sessionIndex: 1 });

    const viaAdmin = await command(
      encodeMessage({ type: 'ADMIN_COMMAND', command: '/next_session' }),
      'NEW_SESSION',
    );
    expect(viaAdmin).toMatchObject({ sessionIndex: 2, name: 'Sprint' });

    const kicked = await command(
      encodeMessage({ type: 'KICK_USER', carId: 0 }),
      'CONNECTION_CLOSED',
    );
    expect(kicked).toMatchObject({ carId: 0, driverName: 'Ana Lima' });
    expect(await command(encodeMessage({ type: 'KICK_USER', carId: 230 }), 'ERROR')).toMatchObject({
      message: 'ERROR: ACSP_KICK_USER index 230 out of bound',
    });

    expect(server.commands.map((c) => c.type)).toEqual([
      'GET_CAR_INFO',
      'GET_SESSION_INFO',
      'GET_SESSION_INFO',
      'SET_SESSION_INFO',
      'NEXT_SESSION',
      'RESTART_SESSION',
      'ADMIN_COMMAND',
      'KICK_USER',
      'KICK_USER',
    ]);
  });

  it('REALTIMEPOS_INTERVAL starts CAR_UPDATEs; unreadable datagrams are counted, not fatal', async () => {
    ({ listener, server } = await setUp(partyRaceByLaps));
    const update = await command(
      encodeMessage({ type: 'REALTIMEPOS_INTERVAL', intervalMs: 50 }),
      'CAR_UPDATE',
    );
    expect([0, 1, 2]).toContain(update.carId);
    listener.send(server.commandPort, Buffer.from([201]));
    listener.send(server.commandPort, Buffer.from([99, 1]));
    const info = await command(encodeMessage({ type: 'GET_CAR_INFO', carId: 2 }), 'CAR_INFO');
    expect(info.driverName).toBe('Chloé Martin');
    expect(server.badDatagrams.map((e) => e.code)).toEqual(['TRUNCATED', 'UNKNOWN_MESSAGE']);
  });

  it('a NEXT_SESSION during a replay ends it: no more laps for the old session', async () => {
    ({ listener, server } = await setUp(
      { ...monzaRace(raceJson), sessions: { race: { laps: 10 }, practice: { minutes: 10 } } },
      { resultsJson: raceJson, speed: 200 },
    ));
    await listener.next('LAP_COMPLETED');
    await command(encodeMessage({ type: 'NEXT_SESSION' }), 'NEW_SESSION');
    await server.replayDone;
    const laps = listener.messages.filter((x) => x.type === 'LAP_COMPLETED');
    expect(laps.length).toBeLessThan(82);
  });
});

describe('a script', () => {
  it('sends its messages in order after start-up', async () => {
    const collision = {
      type: 'CLIENT_EVENT',
      event: 'COLLISION_WITH_CAR',
      carId: 0,
      otherCarId: 2,
      impactSpeed: 12.5,
      worldPosition: { x: 1, y: 2, z: 3 },
      relativePosition: { x: 0, y: 0, z: 1 },
    } as const;
    const { listener, server } = await setUp(partyRaceByLaps, undefined, [
      { message: { type: 'CHAT', carId: 1, message: 'go go go' } },
      { waitMs: 20, message: collision },
    ]);
    await server.replayDone;
    expect(await listener.next('CLIENT_EVENT')).toEqual(collision);
    expect(listener.messages.map((m) => m.type).slice(-2)).toEqual(['CHAT', 'CLIENT_EVENT']);
  });

  it('a command asking for a value the protocol cannot carry is logged, not a crash', async () => {
    const { listener, server } = await setUp(partyRaceByLaps);
    listener.send(
      server.commandPort,
      encodeMessage({
        type: 'SET_SESSION_INFO',
        sessionIndex: 0,
        name: 'Long',
        sessionType: 3,
        laps: 70_000,
        time: 0,
        waitTimeSeconds: 0,
      }),
    );
    listener.send(server.commandPort, encodeMessage({ type: 'GET_CAR_INFO', carId: 0 }));
    expect(await listener.next('CAR_INFO')).toMatchObject({ carId: 0 });
    expect(server.commands.map((c) => c.type)).toEqual(['SET_SESSION_INFO', 'GET_CAR_INFO']);
  });
});

describe('command line', () => {
  it('exits 2 and names the problem when acServer would refuse the config', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-acserver-cli-'));
    cleanup.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const files = writeServerConfig(partyRaceByLaps);
    fs.writeFileSync(path.join(dir, 'server_cfg.ini'), files.serverCfg.replace('TRACK=', 'TRAK='));
    fs.writeFileSync(path.join(dir, 'entry_list.ini'), files.entryList);
    const bin = path.join(import.meta.dirname, '..', '..', 'bin', 'fake-acserver.mjs');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, '--cfg', dir], (error, _stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown key TRAK');
    expect(result.stderr).toContain('missing TRACK');
  });
});
