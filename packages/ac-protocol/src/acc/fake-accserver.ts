// A stand-in for accServer and the broadcasting endpoint Paddock listens to, for tests (decision
// 0090). It reads the cfg/ folder Paddock wrote and refuses what accServer would not run, then
// answers broadcasting registrations: the result, the entry list, each car, the track, and
// realtime updates; `lap()` drives a lap (LAP_COMPLETED, then the car's update with the lap and
// its validity) and `endSession()` writes the session's results file as accServer does.
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import {
  AccEventType,
  AccSessionPhase,
  AccSessionType,
  decodeAccOutbound,
  encodeAccInbound,
  noLap,
  type AccInbound,
  type AccLapInfo,
} from './broadcasting';
import { decodeAccConfigFile, encodeAccConfigFile } from './server-config';

export interface FakeAccEntry {
  raceNumber: number;
  carModel: number;
  steamId: string;
  firstName: string;
  lastName: string;
  shortName: string;
}

export interface FakeAccConfig {
  track: string;
  serverName: string;
  sessions: { type: string; minutes: number }[];
  entries: FakeAccEntry[];
  tcpPort: number;
  udpPort: number;
  /** configuration.json's, as accServer reads it: 1 answers LAN discovery on UDP 8999. */
  lanDiscovery: number;
  maxConnections: number;
}

export class FakeAccConfigRefused extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'FakeAccConfigRefused';
  }
}

const FILES = [
  'configuration.json',
  'settings.json',
  'event.json',
  'eventRules.json',
  'assistRules.json',
  'entrylist.json',
];

/** Reads a cfg/ folder as accServer would: every file present and well-formed, UTF-8 or -16. */
export function readAccServerConfig(cfgDir: string): FakeAccConfig {
  const problems: string[] = [];
  const files: Record<string, Record<string, unknown>> = {};
  for (const name of FILES) {
    try {
      files[name] = JSON.parse(decodeAccConfigFile(fs.readFileSync(path.join(cfgDir, name))));
    } catch (e) {
      problems.push(`${name}: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new FakeAccConfigRefused(problems);
  const conf = files['configuration.json'];
  const event = files['event.json'];
  const settings = files['settings.json'];
  const list = files['entrylist.json'];
  const port = (v: unknown, key: string) => {
    if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 65535)
      problems.push(`configuration.json: ${key} is not a port`);
    return v as number;
  };
  const tcpPort = port(conf.tcpPort, 'tcpPort');
  const udpPort = port(conf.udpPort, 'udpPort');
  if (typeof event.track !== 'string' || !event.track) problems.push('event.json: no track');
  const sessions = Array.isArray(event.sessions)
    ? (event.sessions as Record<string, unknown>[])
    : [];
  if (sessions.length === 0) problems.push('event.json: no sessions');
  for (const s of sessions)
    if (
      !['P', 'Q', 'R'].includes(String(s.sessionType)) ||
      !Number.isInteger(s.sessionDurationMinutes)
    )
      problems.push(`event.json: bad session ${JSON.stringify(s)}`);
  const entries = Array.isArray(list.entries) ? (list.entries as Record<string, unknown>[]) : [];
  const numbers = new Set<number>();
  const parsed = entries.map((e, i) => {
    const d = (Array.isArray(e.drivers) ? e.drivers[0] : {}) as Record<string, unknown>;
    const raceNumber = Number(e.raceNumber);
    if (numbers.has(raceNumber)) problems.push(`entrylist.json: race number ${raceNumber} twice`);
    numbers.add(raceNumber);
    if (!Number.isInteger(e.forcedCarModel)) problems.push(`entrylist.json: entry ${i} has no car`);
    const id = typeof d.playerID === 'string' ? d.playerID : '';
    if (id && !/^S\d{17}$/.test(id)) problems.push(`entrylist.json: bad playerID ${id}`);
    return {
      raceNumber,
      carModel: Number(e.forcedCarModel),
      steamId: id.slice(1),
      firstName: String(d.firstName ?? ''),
      lastName: String(d.lastName ?? ''),
      shortName: String(d.shortName ?? ''),
    };
  });
  if (Number(settings.maxCarSlots) < parsed.length)
    problems.push('settings.json: more entries than maxCarSlots');
  const maxConnections = Number(conf.maxConnections);
  if (!Number.isInteger(maxConnections) || maxConnections < parsed.length)
    problems.push('configuration.json: maxConnections leaves a car without a connection');
  const lanDiscovery = Number(conf.lanDiscovery ?? 1);
  if (lanDiscovery !== 0 && lanDiscovery !== 1)
    problems.push('configuration.json: lanDiscovery is 0 or 1');
  if (problems.length) throw new FakeAccConfigRefused(problems);
  return {
    track: event.track as string,
    serverName: String(settings.serverName ?? ''),
    sessions: sessions.map((s) => ({
      type: String(s.sessionType),
      minutes: Number(s.sessionDurationMinutes),
    })),
    entries: parsed,
    tcpPort,
    udpPort,
    lanDiscovery,
    maxConnections,
  };
}

export interface FakeAccServerOptions {
  cfgDir: string;
  /** Where it answers broadcasting registrations (0 = any free port). */
  broadcastPort: number;
  connectionPassword: string;
  /** Where results files go (accServer's results/ folder). As accServer, the fake writes them
   *  only when that folder exists: the handbook says it must be created by hand. */
  resultsDir?: string;
}

interface CarState {
  carIndex: number;
  entry: FakeAccEntry;
  laps: { lapMs: number; invalid: boolean }[];
}

const SESSION_TYPES: Record<string, number> = {
  P: AccSessionType.PRACTICE,
  Q: AccSessionType.QUALIFYING,
  R: AccSessionType.RACE,
};

export async function startFakeAccServer(options: FakeAccServerOptions) {
  const config = readAccServerConfig(options.cfgDir);
  // Car indexes are the server's, not the entry list's order: Paddock must go by race number.
  const cars: CarState[] = config.entries.map((entry, i) => ({
    carIndex: 1001 + i * 3,
    entry,
    laps: [],
  }));
  const clients = new Map<string, { port: number; address: string; connectionId: number }>();
  const received: string[] = [];
  /** The same datagrams as hex, byte for byte. */
  const receivedHex: string[] = [];
  let sessionIndex = 0;
  let nextConnection = 1;
  /** Datagrams to lose on purpose (a lap missed live). */
  let dropping = 0;

  const socket = dgram.createSocket('udp4');
  const send = async (m: AccInbound) => {
    const bytes = encodeAccInbound(m);
    for (const c of clients.values()) {
      if (dropping > 0) {
        dropping -= 1;
        continue;
      }
      await new Promise<void>((resolve, reject) =>
        socket.send(bytes, c.port, c.address, (e) => (e ? reject(e) : resolve())),
      );
    }
  };
  const sendTo = (to: { port: number; address: string }, m: AccInbound) =>
    new Promise<void>((resolve, reject) =>
      socket.send(encodeAccInbound(m), to.port, to.address, (e) => (e ? reject(e) : resolve())),
    );

  const session = () => config.sessions[Math.min(sessionIndex, config.sessions.length - 1)];
  const realtimeUpdate = (phase: number): AccInbound => ({
    type: 'REALTIME_UPDATE',
    eventIndex: 0,
    sessionIndex,
    sessionType: SESSION_TYPES[session().type] ?? AccSessionType.PRACTICE,
    phase,
    sessionTimeMs: 0,
    sessionEndTimeMs: session().minutes * 60_000,
    focusedCarIndex: cars[0]?.carIndex ?? 0,
    activeCameraSet: 'Drivable',
    activeCamera: 'Cockpit',
    currentHudPage: 'Basic HUD',
    replay: null,
    timeOfDaySeconds: 36_000,
    ambientTemp: 22,
    trackTemp: 30,
    clouds: 1,
    rainLevel: 0,
    wetness: 0,
    bestSessionLap: noLap(),
  });
  const lapInfo = (
    car: CarState,
    lap: { lapMs: number; invalid: boolean } | undefined,
  ): AccLapInfo =>
    lap
      ? {
          ...noLap(car.carIndex),
          lapTimeMs: lap.lapMs,
          isInvalid: lap.invalid,
          isValidForBest: !lap.invalid,
        }
      : noLap(car.carIndex);
  const total = (c: CarState) => c.laps.reduce((s, l) => s + l.lapMs, 0);
  const standings = () =>
    [...cars].sort((a, b) => b.laps.length - a.laps.length || total(a) - total(b));
  const carUpdate = (car: CarState): AccInbound => {
    const valid = car.laps.filter((l) => !l.invalid);
    const best = valid.length ? valid.reduce((a, b) => (b.lapMs < a.lapMs ? b : a)) : undefined;
    return {
      type: 'REALTIME_CAR_UPDATE',
      carIndex: car.carIndex,
      driverIndex: 0,
      driverCount: 1,
      gear: 3,
      worldPosX: 0,
      worldPosY: 0,
      yaw: 0,
      carLocation: 1,
      kmh: 150,
      position: standings().indexOf(car) + 1,
      cupPosition: standings().indexOf(car) + 1,
      trackPosition: standings().indexOf(car) + 1,
      splinePosition: 0.01,
      laps: car.laps.length,
      deltaMs: 0,
      bestSessionLap: lapInfo(car, best),
      lastLap: lapInfo(car, car.laps.at(-1)),
      currentLap: { ...noLap(car.carIndex), lapTimeMs: 1000 },
    };
  };
  const entryListCar = (car: CarState): AccInbound => ({
    type: 'ENTRY_LIST_CAR',
    carIndex: car.carIndex,
    carModelType: car.entry.carModel,
    teamName: '',
    raceNumber: car.entry.raceNumber,
    cupCategory: 0,
    currentDriverIndex: 0,
    nationality: 0,
    drivers: [
      {
        firstName: car.entry.firstName,
        lastName: car.entry.lastName,
        shortName: car.entry.shortName,
        category: 0,
        nationality: 0,
      },
    ],
  });

  socket.on('message', (datagram, from) => {
    receivedHex.push(datagram.toString('hex'));
    const r = decodeAccOutbound(datagram);
    if (!r.ok) {
      received.push(`bad:${r.error.code}`);
      return;
    }
    received.push(r.message.type);
    const key = `${from.address}:${from.port}`;
    void (async () => {
      const m = r.message;
      if (m.type === 'REGISTER_COMMAND_APPLICATION') {
        if (m.connectionPassword !== options.connectionPassword) {
          await sendTo(from, {
            type: 'REGISTRATION_RESULT',
            connectionId: -1,
            success: false,
            readOnly: true,
            errorMessage: 'Password incorrect',
          });
          return;
        }
        const client = { port: from.port, address: from.address, connectionId: nextConnection++ };
        clients.set(key, client);
        await sendTo(from, {
          type: 'REGISTRATION_RESULT',
          connectionId: client.connectionId,
          success: true,
          readOnly: false,
          errorMessage: '',
        });
        await sendTo(from, realtimeUpdate(AccSessionPhase.SESSION));
        await sendEntryList(from, client.connectionId);
        await sendTo(from, trackData(client.connectionId));
      } else if (m.type === 'UNREGISTER_COMMAND_APPLICATION') clients.delete(key);
      else if (m.type === 'REQUEST_ENTRY_LIST') await sendEntryList(from, m.connectionId);
      else if (m.type === 'REQUEST_TRACK_DATA') await sendTo(from, trackData(m.connectionId));
    })();
  });
  const sendEntryList = async (to: { port: number; address: string }, connectionId: number) => {
    await sendTo(to, { type: 'ENTRY_LIST', connectionId, carIndexes: cars.map((c) => c.carIndex) });
    for (const car of cars) await sendTo(to, entryListCar(car));
  };
  const trackData = (connectionId: number): AccInbound => ({
    type: 'TRACK_DATA',
    connectionId,
    trackName: config.track,
    trackId: 0,
    trackMeters: 5793,
    cameraSets: [{ name: 'Drivable', cameras: ['Cockpit'] }],
    hudPages: ['Basic HUD'],
  });

  await new Promise<void>((resolve) => socket.bind(options.broadcastPort, '127.0.0.1', resolve));
  const byNumber = (raceNumber: number) => {
    const car = cars.find((c) => c.entry.raceNumber === raceNumber);
    if (!car) throw new Error(`no car with race number ${raceNumber}`);
    return car;
  };

  return {
    config,
    port: socket.address().port,
    /** What clients sent, by message type (or `bad:CODE`). */
    received,
    receivedHex,
    get registered() {
      return clients.size;
    },
    carIndexOf: (raceNumber: number) => byNumber(raceNumber).carIndex,
    /** The next `n` datagrams are lost (a lap Paddock misses live; the results file has it). */
    drop(n: number) {
      dropping = n;
    },
    /** A car completes a lap: the event, then the car's update (lap count, last lap, validity). */
    async lap(raceNumber: number, lapMs: number, invalid = false) {
      const car = byNumber(raceNumber);
      car.laps.push({ lapMs, invalid });
      const m = Math.floor(lapMs / 60_000);
      const s = ((lapMs % 60_000) / 1000).toFixed(3).padStart(6, '0');
      await send({
        type: 'BROADCASTING_EVENT',
        eventType: AccEventType.LAP_COMPLETED,
        message: `${String(m).padStart(2, '0')}:${s}`,
        timeMs: total(car),
        carIndex: car.carIndex,
      });
      await send(carUpdate(car));
    },
    /** The session ends: SESSION_OVER, its results file (null when results/ is missing, as
     *  accServer writes none then), then the next session starts. */
    async endSession(): Promise<string | null> {
      await send(realtimeUpdate(AccSessionPhase.SESSION_OVER));
      let file: string | null = null;
      if (options.resultsDir && fs.existsSync(options.resultsDir)) {
        file = path.join(
          options.resultsDir,
          `261126_${String(120000 + sessionIndex).padStart(6, '0')}_${session().type}.json`,
        );
        fs.writeFileSync(file, encodeAccConfigFile(JSON.stringify(resultsFile(), null, 1)));
      }
      sessionIndex += 1;
      for (const c of cars) c.laps = [];
      await send(realtimeUpdate(AccSessionPhase.SESSION));
      return file;
    },
    async stop() {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };

  /** The session as accServer's results file (the fields the ACC import reads). */
  function resultsFile() {
    const line = (c: CarState) => {
      const driver = {
        firstName: c.entry.firstName,
        lastName: c.entry.lastName,
        shortName: c.entry.shortName,
        playerId: c.entry.steamId ? `S${c.entry.steamId}` : '',
      };
      const valid = c.laps.filter((l) => !l.invalid).map((l) => l.lapMs);
      return {
        car: {
          carId: c.carIndex,
          raceNumber: c.entry.raceNumber,
          carModel: c.entry.carModel,
          teamName: '',
          drivers: [driver],
        },
        currentDriver: driver,
        timing: {
          lastLap: c.laps.at(-1)?.lapMs ?? 2147483647,
          bestLap: valid.length ? Math.min(...valid) : 2147483647,
          totalTime: total(c),
          lapCount: c.laps.length,
        },
      };
    };
    const laps: unknown[] = [];
    // In time order, as the server appends them.
    const all = cars.flatMap((c) => {
      let at = 0;
      return c.laps.map((l) => ({ c, l, at: (at += l.lapMs) }));
    });
    all.sort((a, b) => a.at - b.at);
    for (const { c, l } of all)
      laps.push({
        carId: c.carIndex,
        driverIndex: 0,
        laptime: l.lapMs,
        isValidForBest: !l.invalid,
        splits: [],
      });
    return {
      sessionType: session().type,
      trackName: config.track,
      sessionIndex,
      raceWeekendIndex: 0,
      metaData: config.track,
      serverName: config.serverName,
      sessionResult: { leaderBoardLines: standings().map(line), isWetSession: 0, type: 0 },
      laps,
      penalties: [],
    };
  }
}

export type FakeAccServer = Awaited<ReturnType<typeof startFakeAccServer>>;
