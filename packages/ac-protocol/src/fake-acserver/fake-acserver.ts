// A stand-in for acServer's UDP plugin side, for tests and demos: it reads a generated
// server_cfg.ini + entry_list.ini (refusing bad ones), announces the session and the cars to
// the plugin address, replays the laps of a real results file in order, and answers commands.
// It does not simulate driving: no TCP game port, no physics.
import dgram from 'node:dgram';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  AC_PROTOCOL_VERSION,
  AcSessionType,
  decodeCommand,
  encodeMessage,
  type AcCommand,
  type AcDecodeError,
  type AcServerMessage,
  type LeaderboardEntry,
} from '../codec';
import { readServerConfig, type FakeEntry, type FakeServerConfig } from './read-server-config';
import { parseResultsFile, type ResultsLap } from './results-file';

export interface FakeAcServerReplay {
  /** The results JSON as the server wrote it (text). Its laps are sent in Timestamp order. */
  resultsJson: string;
  /** 1 = real time (the gaps between the laps' Timestamps); 100 = a hundred times faster. */
  speed?: number;
  /** The name END_SESSION reports; defaults to results/<Type>.json (relative to resultsDir). */
  resultsFileName?: string;
  /** When set, the results JSON is written there before END_SESSION, and END_SESSION names
   *  its full path, as acServer does with its results folder. */
  resultsDir?: string;
  /** Map the results file's car ids onto entry-list car ids; default: the same id. Laps of cars
   *  that are not in the entry list are skipped. The file written for END_SESSION then carries
   *  the mapped ids, as acServer's own file does (its CarId is the entry-list index); a car
   *  left out of the map gets an id past the entry list's end. */
  carIds?: Record<number, number>;
}

/** One scripted message: sent `waitMs` after the previous step. */
export interface FakeAcServerScriptStep {
  waitMs?: number;
  message: AcServerMessage;
}

export interface FakeAcServerOptions {
  serverCfg: string;
  entryList: string;
  replay?: FakeAcServerReplay;
  /** Messages to send after start-up (and after the replay, when there is one), e.g. the
   *  collisions or chat a test needs. */
  script?: FakeAcServerScriptStep[];
  /** Override UDP_PLUGIN_LOCAL_PORT (0: any free port; tests read handle.commandPort). */
  commandPort?: number;
  log?: (line: string) => void;
}

export interface FakeAcServerHandle {
  config: FakeServerConfig;
  /** The UDP port the fake listens on for commands. */
  commandPort: number;
  /** Every command received, in order. */
  readonly commands: AcCommand[];
  /** Datagrams that could not be read. */
  readonly badDatagrams: AcDecodeError[];
  /** Every message sent to the plugin, in order. */
  readonly sent: AcServerMessage[];
  currentSessionIndex(): number;
  /** Resolves when the replay has sent END_SESSION (or was cut short by a session change). */
  replayDone: Promise<void>;
  stop(): Promise<void>;
}

/** The files were refused; `problems` says why, one line each. */
export class FakeAcServerConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`acServer would refuse this config:\n  ${problems.join('\n  ')}`);
    this.name = 'FakeAcServerConfigError';
  }
}

const SESSION_TYPE_CODE = {
  BOOK: AcSessionType.BOOKING,
  PRACTICE: AcSessionType.PRACTICE,
  QUALIFY: AcSessionType.QUALIFY,
  RACE: AcSessionType.RACE,
} as const;

export async function startFakeAcServer(options: FakeAcServerOptions): Promise<FakeAcServerHandle> {
  const read = readServerConfig(options.serverCfg, options.entryList);
  if (!read.ok) throw new FakeAcServerConfigError(read.problems);
  const config = read.config;
  const log = options.log ?? (() => {});
  const results = options.replay ? parseResultsFile(options.replay.resultsJson) : undefined;
  if (results && !results.ok) throw new FakeAcServerConfigError([results.problem]);

  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.commandPort ?? config.plugin.localPort, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const commandPort = socket.address().port;

  const commands: AcCommand[] = [];
  const badDatagrams: AcDecodeError[] = [];
  const sent: AcServerMessage[] = [];
  /** Pending waits of the replay; stop() ends them so replayDone always settles. */
  const timers = new Map<NodeJS.Timeout, () => void>();
  let stopped = false;
  let sessionIndex = 0;
  const sessionStartedAt = new Map<number, number>();
  /** Car id → who is in it now. */
  const connected = new Map<number, { name: string; guid: string }>();
  let realtimeTimer: NodeJS.Timeout | undefined;
  let replayGeneration = 0;

  if (results?.ok) {
    const i = config.sessions.findIndex((s) => s.type === results.file.type);
    if (i >= 0) sessionIndex = i;
  }

  function send(message: AcServerMessage): void {
    if (stopped) return;
    let bytes: Buffer;
    try {
      bytes = encodeMessage(message);
    } catch (e) {
      // A value a command set (SET_SESSION_INFO laps > 65535) that the message cannot carry.
      log(`cannot send ${message.type}: ${(e as Error).message}`);
      return;
    }
    sent.push(message);
    socket.send(bytes, config.plugin.port, config.plugin.host);
    log(`→ ${message.type}${'carId' in message ? ` car ${message.carId}` : ''}`);
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });
  }

  function sessionInfo(index: number, type: 'NEW_SESSION' | 'SESSION_INFO'): AcServerMessage {
    const s = config.sessions[index];
    const started = sessionStartedAt.get(index);
    return {
      type,
      version: AC_PROTOCOL_VERSION,
      sessionIndex: index,
      currentSessionIndex: sessionIndex,
      sessionCount: config.sessions.length,
      serverName: config.serverName,
      track: config.track,
      trackConfig: config.trackConfig,
      name: s.name,
      sessionType: SESSION_TYPE_CODE[s.type],
      timeMinutes: s.minutes,
      laps: s.laps,
      waitTimeSeconds: s.waitSeconds,
      ambientTemp: config.weather.ambientC,
      roadTemp: config.weather.roadC,
      weatherGraphics: config.weather.graphics,
      elapsedMs: started === undefined ? 0 : Date.now() - started - s.waitSeconds * 1000,
    };
  }

  function startSession(index: number): void {
    replayGeneration += 1; // a running replay belongs to the session that just ended
    sessionIndex = index;
    sessionStartedAt.set(index, Date.now());
    send(sessionInfo(index, 'NEW_SESSION'));
  }

  function resultsName(): string {
    const type = config.sessions[sessionIndex].type;
    return options.replay?.resultsFileName ?? `results/${type}.json`;
  }

  function connect(entry: FakeEntry, name: string, guid: string): void {
    connected.set(entry.carId, { name, guid });
    send({
      type: 'NEW_CONNECTION',
      driverName: name,
      driverGuid: guid,
      carId: entry.carId,
      carModel: entry.model,
      carSkin: entry.skin,
    });
  }

  function disconnect(entry: FakeEntry): void {
    const who = connected.get(entry.carId);
    if (!who) return;
    connected.delete(entry.carId);
    send({
      type: 'CONNECTION_CLOSED',
      driverName: who.name,
      driverGuid: who.guid,
      carId: entry.carId,
      carModel: entry.model,
      carSkin: entry.skin,
    });
  }

  function answer(command: AcCommand): void {
    switch (command.type) {
      case 'REALTIMEPOS_INTERVAL':
        if (realtimeTimer) clearInterval(realtimeTimer);
        realtimeTimer = undefined;
        if (command.intervalMs > 0) {
          realtimeTimer = setInterval(
            () => {
              for (const carId of connected.keys()) {
                send({
                  type: 'CAR_UPDATE',
                  carId,
                  position: { x: 0, y: 0, z: carId * 8 },
                  velocity: { x: 0, y: 0, z: 0 },
                  gear: 0,
                  engineRpm: 900,
                  normalizedSplinePosition: 0,
                });
              }
            },
            Math.max(command.intervalMs, 20),
          );
        }
        break;
      case 'GET_CAR_INFO': {
        const entry = config.entries[command.carId];
        if (!entry) {
          send({
            type: 'ERROR',
            message: `ERROR: ACSP_GET_CAR_INFO index ${command.carId} out of bound`,
          });
          break;
        }
        const who = connected.get(entry.carId);
        send({
          type: 'CAR_INFO',
          carId: entry.carId,
          isConnected: !!who,
          carModel: entry.model,
          carSkin: entry.skin,
          driverName: who?.name ?? entry.driverName,
          driverTeam: entry.team,
          driverGuid: who?.guid ?? entry.guid,
        });
        break;
      }
      case 'GET_SESSION_INFO': {
        const index = command.sessionIndex === -1 ? sessionIndex : command.sessionIndex;
        if (index < 0 || index >= config.sessions.length) {
          send({ type: 'ERROR', message: `ERROR: ACSP_GET_SESSION_INFO out of bounds: ${index}` });
        } else send(sessionInfo(index, 'SESSION_INFO'));
        break;
      }
      case 'SET_SESSION_INFO': {
        const s = config.sessions[command.sessionIndex];
        if (!s) {
          send({
            type: 'ERROR',
            message: `ERROR: ACSP_SET_SESSION_INFO index ${command.sessionIndex}`,
          });
          break;
        }
        s.name = command.name;
        s.laps = command.laps;
        s.minutes = command.time;
        s.waitSeconds = command.waitTimeSeconds;
        send(sessionInfo(command.sessionIndex, 'SESSION_INFO'));
        break;
      }
      case 'KICK_USER': {
        const entry = config.entries[command.carId];
        if (entry && connected.has(entry.carId)) disconnect(entry);
        else
          send({
            type: 'ERROR',
            message: `ERROR: ACSP_KICK_USER index ${command.carId} out of bound`,
          });
        break;
      }
      case 'NEXT_SESSION':
        send({ type: 'END_SESSION', resultsFile: resultsName() });
        startSession((sessionIndex + 1) % config.sessions.length);
        break;
      case 'RESTART_SESSION':
        startSession(sessionIndex);
        break;
      case 'ADMIN_COMMAND':
        if (command.command.trim() === '/next_session') answer({ type: 'NEXT_SESSION' });
        else if (command.command.trim() === '/restart_session') answer({ type: 'RESTART_SESSION' });
        break;
      case 'SEND_CHAT':
      case 'BROADCAST_CHAT':
        break; // a chat goes to the game clients; there are none here
    }
  }

  socket.on('message', (datagram) => {
    const result = decodeCommand(datagram);
    if (!result.ok) {
      badDatagrams.push(result.error);
      log(`← unreadable datagram: ${result.error.code} ${result.error.detail}`);
      return;
    }
    commands.push(result.message);
    log(`← ${result.message.type}`);
    answer(result.message);
  });

  async function replay(laps: ResultsLap[], raceLaps: number, isRace: boolean): Promise<void> {
    const generation = replayGeneration;
    const speed = options.replay?.speed ?? 1;
    const carMap = options.replay?.carIds ?? {};
    const progress = new Map<number, { laps: number; total: number; best: number }>();
    let previous = laps[0]?.timestamp ?? 0;
    for (const lap of laps) {
      const gap = Math.max(0, lap.timestamp - previous) / speed;
      previous = lap.timestamp;
      await wait(gap);
      if (stopped || generation !== replayGeneration) return;
      const carId = carMap[lap.carId] ?? lap.carId;
      const entry = config.entries[carId];
      if (!entry) {
        log(`replay: car ${lap.carId} is not in the entry list, lap skipped`);
        continue;
      }
      // A different driver in the car (a late joiner, a driver swap): the server would have
      // reported the change before this lap.
      const who = connected.get(carId);
      if (lap.driverGuid && who?.guid !== lap.driverGuid) {
        disconnect(entry);
        connect(entry, lap.driverName, lap.driverGuid);
      }
      const p = progress.get(carId) ?? { laps: 0, total: 0, best: 0 };
      p.laps += 1;
      p.total += lap.lapTimeMs;
      if (lap.cuts === 0 && (p.best === 0 || lap.lapTimeMs < p.best)) p.best = lap.lapTimeMs;
      progress.set(carId, p);
      send({
        type: 'LAP_COMPLETED',
        carId,
        lapTimeMs: lap.lapTimeMs,
        cuts: lap.cuts,
        leaderboard: leaderboard(progress, raceLaps, isRace),
        gripLevel: 1,
      });
    }
    if (stopped || generation !== replayGeneration) return;
    let resultsFile = resultsName();
    if (options.replay?.resultsDir) {
      resultsFile = path.join(options.replay.resultsDir, path.basename(resultsFile));
      await fs.mkdir(options.replay.resultsDir, { recursive: true });
      await fs.writeFile(resultsFile, withCarIds(options.replay.resultsJson));
    }
    send({ type: 'END_SESSION', resultsFile });
  }

  function leaderboard(
    progress: Map<number, { laps: number; total: number; best: number }>,
    raceLaps: number,
    isRace: boolean,
  ): LeaderboardEntry[] {
    const rows = config.entries.map((e) => {
      const p = progress.get(e.carId) ?? { laps: 0, total: 0, best: 0 };
      return {
        carId: e.carId,
        timeMs: isRace ? p.total : p.best,
        laps: p.laps,
        completed: isRace && raceLaps > 0 && p.laps >= raceLaps,
      };
    });
    // Race: more laps first, then less total time; other sessions: best lap, no time last.
    rows.sort((a, b) =>
      isRace
        ? b.laps - a.laps || a.timeMs - b.timeMs
        : (a.timeMs || Infinity) - (b.timeMs || Infinity),
    );
    return rows;
  }

  /** The results file as this server would write it: car ids of its own entry list. */
  function withCarIds(json: string): string {
    const map = options.replay?.carIds;
    if (!map) return json;
    const data = JSON.parse(json) as Record<string, unknown>;
    const mapped = (id: unknown) =>
      typeof id !== 'number' ? id : (map[id] ?? config.entries.length + id);
    for (const list of ['Cars', 'Result', 'Laps', 'Events'])
      for (const row of (Array.isArray(data[list]) ? data[list] : []) as Record<string, unknown>[])
        if (row && typeof row === 'object') {
          if ('CarId' in row) row.CarId = mapped(row.CarId);
          if (typeof row.OtherCarId === 'number' && row.OtherCarId >= 0)
            row.OtherCarId = mapped(row.OtherCarId);
        }
    return JSON.stringify(data, null, 2);
  }

  // Start up as acServer does: protocol version, the current session, then the cars.
  send({ type: 'VERSION', version: AC_PROTOCOL_VERSION });
  startSession(sessionIndex);
  for (const entry of config.entries) connect(entry, entry.driverName, entry.guid);
  for (const entry of config.entries) send({ type: 'CLIENT_LOADED', carId: entry.carId });

  async function runScript(steps: FakeAcServerScriptStep[]): Promise<void> {
    for (const step of steps) {
      await wait(step.waitMs ?? 0);
      if (stopped) return;
      send(step.message);
    }
  }

  const replayDone = (async () => {
    if (results?.ok) {
      const session = config.sessions[sessionIndex];
      await replay(
        results.file.laps,
        session.laps || results.file.raceLaps,
        session.type === 'RACE',
      );
    }
    if (options.script) await runScript(options.script);
  })();

  return {
    config,
    commandPort,
    commands,
    badDatagrams,
    sent,
    currentSessionIndex: () => sessionIndex,
    replayDone,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const [t, resolve] of timers) {
        clearTimeout(t);
        resolve();
      }
      timers.clear();
      if (realtimeTimer) clearInterval(realtimeTimer);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
