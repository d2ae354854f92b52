import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACC_SPARE_CONNECTIONS,
  AccConfigError,
  decodeAccConfigFile,
  encodeAccConfigFile,
  writeAccServerConfig,
  type AccServerRace,
} from './server-config';
import {
  FakeAccConfigRefused,
  readAccServerConfig,
  startFakeAccServer,
  type FakeAccServer,
} from './fake-accserver';
import { decodeAccInbound, encodeAccOutbound, type AccInbound } from './broadcasting';

const race: AccServerRace = {
  serverName: 'Paddock Friday — Zoë',
  password: 'join',
  adminPassword: 'admin',
  track: 'monza',
  sessions: [
    { type: 'P', minutes: 10, hourOfDay: 12 },
    { type: 'R', minutes: 20, hourOfDay: 14 },
  ],
  assists: { stabilityControl: false, autoClutch: true, idealLine: false },
  entries: [
    {
      carModel: 25,
      raceNumber: 1,
      steamId: '76561197971070302',
      firstName: 'Zoë',
      lastName: 'K',
      shortName: 'ZOE',
    },
    { carModel: 1, raceNumber: 2, steamId: '', firstName: 'Seat', lastName: '2', shortName: 'S2' },
  ],
  ports: { tcp: 9232, udp: 9231 },
};

let tmp: string | undefined;
let fake: FakeAccServer | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});
function writeCfg(files: Record<string, string>) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acc-cfg-'));
  for (const [name, text] of Object.entries(files))
    fs.writeFileSync(path.join(tmp, name), encodeAccConfigFile(text));
  return tmp;
}

describe('ACC server config files', () => {
  it('writes the six files from one race', () => {
    const files = writeAccServerConfig(race);
    const parsed = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, JSON.parse(v)]));
    // The handbook's keys (configuration.json): two connections spare beyond the two cars, for
    // a spectator or broadcast PC; LAN discovery on (the game's scan of serverList.json's
    // leagueServerIP is answered on UDP 8999 only then); off the public lobby.
    expect(parsed['configuration.json']).toEqual({
      tcpPort: 9232,
      udpPort: 9231,
      maxConnections: 4,
      lanDiscovery: 1,
      registerToLobby: 0,
      configVersion: 1,
    });
    expect(ACC_SPARE_CONNECTIONS).toBe(2);
    expect(parsed['settings.json']).toMatchObject({
      password: 'join',
      adminPassword: 'admin',
      maxCarSlots: 2,
      dumpLeaderboards: 1,
    });
    expect(parsed['event.json'].track).toBe('monza');
    expect(parsed['event.json'].sessions).toEqual([
      {
        hourOfDay: 12,
        dayOfWeekend: 1,
        timeMultiplier: 1,
        sessionType: 'P',
        sessionDurationMinutes: 10,
      },
      {
        hourOfDay: 14,
        dayOfWeekend: 3,
        timeMultiplier: 1,
        sessionType: 'R',
        sessionDurationMinutes: 20,
      },
    ]);
    expect(parsed['assistRules.json']).toMatchObject({
      stabilityControlLevelMax: 0,
      disableAutoClutch: 0,
      disableIdealLine: 1,
    });
    expect(parsed['entrylist.json'].entries[0]).toMatchObject({
      raceNumber: 1,
      forcedCarModel: 25,
      overrideDriverInfo: 1,
      drivers: [{ firstName: 'Zoë', playerID: 'S76561197971070302' }],
    });
    expect(parsed['entrylist.json'].entries[1].drivers[0].playerID).toBeUndefined();
    // A seat with no known driver is open: the list cannot be forced.
    expect(parsed['entrylist.json'].forceEntryList).toBe(0);
  });

  it('lists every reason a race cannot run', () => {
    const bad = {
      ...race,
      track: '',
      sessions: [{ type: 'P' as const, minutes: 0, hourOfDay: 12 }],
      entries: [race.entries[0], { ...race.entries[1], raceNumber: 1, steamId: '123' }],
      ports: { tcp: 9000, udp: 9000 },
    };
    try {
      writeAccServerConfig(bad);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(AccConfigError);
      expect((e as AccConfigError).problems).toEqual([
        'The race has no track.',
        'A P session runs 1 to 1440 minutes, not 0.',
        'ACC needs a qualifying or race session after practice.',
        'Race number 1 is out of range or used twice.',
        '123 is not a Steam64 id.',
        'The TCP and UDP ports must differ.',
      ]);
    }
  });

  it('encodes as accServer does (UTF-16 LE, BOM) and reads UTF-8 and UTF-16 back', () => {
    const bytes = encodeAccConfigFile('{"n":"Zoë"}');
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xfe, 0x7b, 0x00]);
    expect(decodeAccConfigFile(bytes)).toBe('{"n":"Zoë"}');
    expect(decodeAccConfigFile(Buffer.from('{"n":"Zoë"}', 'utf16le'))).toBe('{"n":"Zoë"}');
    expect(decodeAccConfigFile(Buffer.from('\uFEFF{"n":"Zoë"}', 'utf8'))).toBe('{"n":"Zoë"}');
    expect(decodeAccConfigFile(Buffer.from('{"n":"Zoë"}', 'utf8'))).toBe('{"n":"Zoë"}');
  });
});

describe('the fake ACC server', () => {
  it('reads the written files back, and refuses a broken folder', () => {
    const dir = writeCfg(writeAccServerConfig(race));
    const config = readAccServerConfig(dir);
    expect(config.track).toBe('monza');
    expect(config).toMatchObject({ lanDiscovery: 1, maxConnections: 4 });
    expect(config.entries.map((e) => [e.raceNumber, e.carModel, e.steamId])).toEqual([
      [1, 25, '76561197971070302'],
      [2, 1, ''],
    ]);
    // Fewer connections than cars: a seat could not join.
    const files = writeAccServerConfig(race);
    const tight = JSON.parse(files['configuration.json']);
    fs.writeFileSync(
      path.join(dir, 'configuration.json'),
      encodeAccConfigFile(JSON.stringify({ ...tight, maxConnections: 1 })),
    );
    expect(() => readAccServerConfig(dir)).toThrow(/maxConnections/);
    fs.writeFileSync(path.join(dir, 'event.json'), encodeAccConfigFile('{"track":'));
    fs.rmSync(path.join(dir, 'entrylist.json'));
    expect(() => readAccServerConfig(dir)).toThrow(FakeAccConfigRefused);
  });

  it('writes a results file only into an existing results/ folder, as accServer does', async () => {
    const dir = writeCfg(writeAccServerConfig(race));
    const resultsDir = path.join(dir, 'results');
    fake = await startFakeAccServer({
      cfgDir: dir,
      broadcastPort: 0,
      connectionPassword: 'pw',
      resultsDir,
    });
    expect(await fake.endSession()).toBeNull();
    expect(fs.existsSync(resultsDir)).toBe(false);
    fs.mkdirSync(resultsDir);
    const file = await fake.endSession();
    expect(file && path.dirname(file)).toBe(resultsDir);
  });

  it('answers a registration with the entry list and drives laps with their validity', async () => {
    const dir = writeCfg(writeAccServerConfig(race));
    const resultsDir = path.join(dir, 'results');
    fs.mkdirSync(resultsDir);
    fake = await startFakeAccServer({
      cfgDir: dir,
      broadcastPort: 0,
      connectionPassword: 'pw',
      resultsDir,
    });
    const client = dgram.createSocket('udp4');
    const got: AccInbound[] = [];
    client.on('message', (d) => {
      const r = decodeAccInbound(d);
      if (r.ok) got.push(r.message);
    });
    await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
    const register = (password: string) =>
      client.send(
        encodeAccOutbound({
          type: 'REGISTER_COMMAND_APPLICATION',
          displayName: 'test',
          connectionPassword: password,
          updateIntervalMs: 250,
          commandPassword: '',
        }),
        fake!.port,
        '127.0.0.1',
      );
    const until = async (fn: () => boolean) => {
      while (!fn()) await new Promise((r) => setTimeout(r, 10));
    };
    register('wrong');
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ type: 'REGISTRATION_RESULT', success: false });
    register('pw');
    await until(
      () =>
        got.filter((m) => m.type === 'ENTRY_LIST_CAR').length === 2 &&
        got.some((m) => m.type === 'TRACK_DATA'),
    );
    const cars = got.flatMap((m) =>
      m.type === 'ENTRY_LIST_CAR' ? [[m.carIndex, m.raceNumber]] : [],
    );
    expect(cars).toEqual([
      [fake.carIndexOf(1), 1],
      [fake.carIndexOf(2), 2],
    ]);

    await fake.lap(2, 101_234, true);
    await until(() => got.some((m) => m.type === 'REALTIME_CAR_UPDATE'));
    const update = got.find((m) => m.type === 'REALTIME_CAR_UPDATE');
    expect(update).toMatchObject({
      carIndex: fake.carIndexOf(2),
      laps: 1,
      position: 1,
      lastLap: { lapTimeMs: 101_234, isInvalid: true },
    });
    expect(got.find((m) => m.type === 'BROADCASTING_EVENT')).toMatchObject({
      message: '01:41.234',
      carIndex: fake.carIndexOf(2),
    });

    const file = await fake.endSession();
    const results = JSON.parse(decodeAccConfigFile(fs.readFileSync(file!)));
    expect(results.sessionType).toBe('P');
    expect(results.laps).toEqual([
      {
        carId: fake.carIndexOf(2),
        driverIndex: 0,
        laptime: 101_234,
        isValidForBest: false,
        splits: [],
      },
    ]);
    expect(results.sessionResult.leaderBoardLines[0].car.raceNumber).toBe(2);

    // The SDK's one-byte unregistration ends the registration.
    expect(fake.registered).toBe(1);
    client.send(
      encodeAccOutbound({ type: 'UNREGISTER_COMMAND_APPLICATION' }),
      fake.port,
      '127.0.0.1',
    );
    await until(() => fake!.registered === 0);
    expect(fake.received.at(-1)).toBe('UNREGISTER_COMMAND_APPLICATION');
    await new Promise<void>((resolve) => client.close(() => resolve()));
  });
});
