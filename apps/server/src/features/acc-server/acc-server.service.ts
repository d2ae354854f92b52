// Paddock and the ACC dedicated server (docs/decisions/0090): for a party whose track is an ACC
// track, write accServer's cfg/ files from the event, start it, follow the party's session on
// ACC's broadcasting protocol (laps with their validity, positions) and import each session's
// results file from accServer's results/ folder when the session is over.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { lapIngest, type ImportResponse } from '@paddock/contract/laps';
import {
  ACC_NO_TIME,
  AccSessionPhase,
  decodeAccInbound,
  encodeAccOutbound,
  type AccInbound,
  type AccOutbound,
} from '@paddock/ac-protocol/acc/broadcasting';
import {
  decodeAccConfigFile,
  encodeAccConfigFile,
  writeAccServerConfig,
} from '@paddock/ac-protocol/acc/server-config';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { ValidationError } from '../../plugins/errors';
import { importResults, storeLap } from '../laps/laps.service';
import { relayPeer } from '../races/launcher-signals';
import type { getEvent } from '../races/load-events';
import { ServerRaceError, type ServerRaceLookups } from '../ac-server/server-race';
import { toAccServerRace, raceNumberOf } from './acc-server-race';
import type { FeedRecorder } from '@paddock/ac-protocol/feed-recording';
import {
  accTimingEvents,
  newAccTimingMemory,
  type AccTimingMemory,
} from '../live-timing/sim-events';
import { liveFeedOf, type LiveFeed } from '../live-timing/live-feed';
import { liveSessionKey, storeLiveResult } from '../live-timing/live-result';

export type AccServerConfig = NonNullable<Config['accServer']>;
type RaceEventRow = Awaited<ReturnType<typeof getEvent>>;

const STOP_GRACE_MS = 5000;
/** Registration is sent again until the game answers (it may start after Paddock). */
const REGISTER_EVERY_MS = 2000;

export interface AccRunning {
  partyId: number;
  eventId: number;
  runId: string;
  child: ChildProcess;
  exited: Promise<void>;
  socket: dgram.Socket;
  registerTimer: NodeJS.Timeout | null;
  connectionId: number | null;
  /** Seat order → calendar id; a seat's race number is its index + 1. */
  seats: number[];
  models: string[];
  track: string;
  password: string;
  /** Broadcasting car index → seat index (from ENTRY_LIST_CAR's race number). */
  carSeat: Map<number, number>;
  /** Seat index → laps stored live in this session (the car update's lap count). */
  seatLaps: Map<number, number>;
  /** Seat index → position, as the last car update said. */
  positions: Map<number, number>;
  sessionIndex: number;
  phase: number;
  lapsStored: number;
  imports: ImportResponse[];
  /** Imports that failed (the database refused): their file is tried again. */
  importErrors: number;
  importedFiles: Set<string>;
  startedAt: number;
  queue: Promise<void>;
  /** The timing tower's view of the feed, and the feed's recording (decision 0122). */
  timing: AccTimingMemory;
  recorder: FeedRecorder | null;
  /** ACC sessions whose results file was imported: their live result is not stored after it. */
  filesFor: Set<number>;
}

/** The key a lap of this run is stored under, live or from the results file: its seat (race
 *  number) and its number for that car in the session (one rule with 0081's AC key). */
export function accLapKey(
  run: { partyId: number; runId: string },
  sessionIndex: number,
  seatIndex: number,
  carLap: number,
) {
  return `accsrv:${run.partyId}:${run.runId}:${sessionIndex}:seat${seatIndex}:${carLap}`;
}

export class AccServerLink {
  private readonly running = new Map<number, AccRunning>();

  constructor(
    private readonly db: Db,
    private readonly config: AccServerConfig | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly live: LiveFeed = {},
  ) {}

  get enabled() {
    return this.config !== undefined;
  }

  run(partyId: number) {
    return this.running.get(partyId);
  }

  /** Where a seat joins: accServer's host, TCP port and join password. */
  remoteOf(eventId: number) {
    if (!this.config) return null;
    for (const r of this.running.values())
      if (r.eventId === eventId)
        return { ip: this.config.serverHost, port: this.config.tcpPort, password: r.password };
    return null;
  }

  status(partyId: number) {
    const r = this.running.get(partyId);
    return {
      running: Boolean(r),
      party: partyId,
      folder: r ? this.cfgDir() : null,
      pid: r?.child.pid ?? null,
      plugin_port: r ? (r.socket.address().port ?? null) : null,
      game_port: r ? this.config!.tcpPort : null,
      password: r?.password ?? null,
      session: r ? String(r.sessionIndex) : null,
      laps_stored: r?.lapsStored ?? 0,
    };
  }

  private cfgDir() {
    return path.join(path.dirname(this.config!.path), 'cfg');
  }
  private resultsDir() {
    return path.join(path.dirname(this.config!.path), 'results');
  }

  /**
   * Writes cfg/ (accServer reads it from beside its binary, so one ACC party runs per install),
   * starts accServer, registers on the broadcasting endpoint and tells the seats where to join.
   */
  async start(partyId: number, partyName: string, event: RaceEventRow, lookups: ServerRaceLookups) {
    const config = this.config!;
    if (this.running.has(partyId)) return this.status(partyId);
    if (this.running.size > 0)
      throw ValidationError.nonField('The ACC server runs another party now: stop it first.');
    let mapped;
    try {
      mapped = toAccServerRace(event, lookups, {
        serverName: `Paddock ${partyName}`.slice(0, 120),
        // No join password: an unattended seat cannot type one, and ACC has no way to hand it
        // over in a file. The server is off the lobby and on the venue's network (0090).
        password: '',
        adminPassword: crypto.randomBytes(12).toString('hex'),
        ports: { tcp: config.tcpPort, udp: config.tcpPort - 1 },
      });
    } catch (error) {
      if (error instanceof ServerRaceError)
        throw new ValidationError({ non_field_errors: error.problems });
      throw error;
    }
    const files = writeAccServerConfig(mapped.race);
    const cfg = this.cfgDir();
    await fsp.mkdir(cfg, { recursive: true });
    for (const [name, text] of Object.entries(files))
      await fsp.writeFile(path.join(cfg, name), encodeAccConfigFile(text));
    // accServer writes results files (dumpLeaderboards) only into an existing results/ folder
    // (the handbook: "must be manually created"); without it the session's import finds nothing.
    await fsp.mkdir(this.resultsDir(), { recursive: true });

    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '0.0.0.0', resolve));
    const log = fs.createWriteStream(path.join(cfg, '..', 'paddock-accServer.log'), { flags: 'a' });
    const child = spawn(config.path, [], {
      cwd: path.dirname(config.path),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', (err) => {
        this.log.error({ err, party: partyId }, 'accServer did not start');
        resolve();
      });
    });
    const r: AccRunning = {
      partyId,
      eventId: event.id,
      runId: Date.now().toString(36),
      child,
      exited,
      socket,
      registerTimer: null,
      connectionId: null,
      seats: mapped.seats,
      models: event.entries.map((e) => lookups.cars[e.car ?? event.cars[0]] ?? ''),
      track: mapped.race.track,
      password: mapped.race.password,
      carSeat: new Map(),
      seatLaps: new Map(),
      positions: new Map(),
      sessionIndex: 0,
      phase: AccSessionPhase.NONE,
      lapsStored: 0,
      imports: [],
      importErrors: 0,
      importedFiles: new Set(),
      startedAt: Date.now(),
      queue: Promise.resolve(),
      timing: newAccTimingMemory(),
      recorder: null,
      filesFor: new Set(),
    };
    this.running.set(partyId, r);
    r.recorder = liveFeedOf(this.live, event, lookups, 'acc', partyName, async (tower) => {
      const session = r.timing.ended;
      // On the run's queue: a results file imported first leaves the live result out.
      r.queue = r.queue
        .then(async () => {
          if (session === null || r.filesFor.has(session) || event.track === null) return;
          await storeLiveResult(this.db, tower, {
            sessionKey: liveSessionKey('acc', partyId, r.runId, session),
            trackId: event.track,
            serverName: mapped.race.serverName,
            seats: mapped.seats,
            cars: event.entries.map((e) => e.car ?? event.cars[0]),
          });
        })
        .catch((err: unknown) => this.log.error({ err, party: partyId }, 'ACC result not stored'));
      await r.queue;
    }).recorder;
    socket.on('message', (datagram, from) => {
      if (from.port !== config.broadcast.port) return;
      r.recorder?.record(datagram);
      const decoded = decodeAccInbound(datagram);
      if (!decoded.ok) {
        this.log.warn({ error: decoded.error, party: partyId }, 'unreadable ACC datagram');
        return;
      }
      // The entry list first (the tower maps cars by it), then the tower, waiting for no lap.
      if (decoded.message.type === 'ENTRY_LIST_CAR') this.entryCar(r, decoded.message);
      this.live.timing?.feed(
        r.eventId,
        accTimingEvents(decoded.message, r.timing, (car) => r.carSeat.get(car)),
      );
      r.queue = r.queue
        .then(() => this.handle(r, decoded.message))
        .catch((err: unknown) =>
          this.log.error({ err, party: partyId }, 'ACC message not handled'),
        );
    });
    const register = () =>
      this.send(r, {
        type: 'REGISTER_COMMAND_APPLICATION',
        displayName: 'Paddock',
        connectionPassword: config.broadcast.password,
        updateIntervalMs: 250,
        commandPassword: '',
      });
    await register();
    r.registerTimer = setInterval(() => void register(), REGISTER_EVERY_MS);
    await relayPeer(this.db, event.id, {
      data: {
        acc_server: { ip: config.serverHost, port: config.tcpPort, password: r.password },
      },
      from: null,
      socket: 'acc-server',
    });
    void exited.then(async () => {
      if (this.running.get(partyId) !== r) return;
      this.log.warn({ party: partyId }, 'accServer exited');
      await this.stop(partyId);
    });
    this.log.info({ party: partyId, pid: child.pid }, 'accServer started');
    return this.status(partyId);
  }

  private send(r: AccRunning, m: AccOutbound) {
    const { host, port } = this.config!.broadcast;
    return new Promise<void>((resolve) =>
      r.socket.send(encodeAccOutbound(m), port, host, (err) => {
        if (err) this.log.warn({ err, party: r.partyId }, 'ACC broadcasting send failed');
        resolve();
      }),
    );
  }

  /** Stops accServer, then imports what results files it left and closes the link. */
  async stop(partyId: number) {
    const r = this.running.get(partyId);
    if (!r) return;
    this.running.delete(partyId);
    if (r.registerTimer) clearInterval(r.registerTimer);
    // The SDK's form: one byte, the game knows the sender by its address.
    if (r.connectionId !== null) await this.send(r, { type: 'UNREGISTER_COMMAND_APPLICATION' });
    if (r.child.exitCode === null && r.child.signalCode === null) {
      r.child.kill('SIGTERM');
      const timer = setTimeout(() => r.child.kill('SIGKILL'), STOP_GRACE_MS);
      await r.exited;
      clearTimeout(timer);
    }
    await r.queue;
    await this.importResultsFiles(r);
    await new Promise<void>((resolve) => r.socket.close(() => resolve()));
    await this.live.timing?.close(r.eventId);
    await r.recorder?.close();
    this.log.info({ party: partyId }, 'accServer stopped');
  }

  async close() {
    for (const id of [...this.running.keys()]) await this.stop(id);
  }

  get parties() {
    return [...this.running.keys()];
  }

  /** The game's car index → our seat, by the race number we gave the seat. */
  private entryCar(r: AccRunning, m: Extract<AccInbound, { type: 'ENTRY_LIST_CAR' }>) {
    const seat = m.raceNumber - 1;
    if (raceNumberOf(seat) === m.raceNumber && seat < r.seats.length)
      r.carSeat.set(m.carIndex, seat);
  }

  private async handle(r: AccRunning, m: AccInbound) {
    switch (m.type) {
      case 'REGISTRATION_RESULT':
        if (!m.success) {
          this.log.error({ party: r.partyId, message: m.errorMessage }, 'ACC broadcasting refused');
          return;
        }
        r.connectionId = m.connectionId;
        if (r.registerTimer) clearInterval(r.registerTimer);
        r.registerTimer = null;
        return;
      case 'ENTRY_LIST_CAR':
        this.entryCar(r, m);
        return;
      case 'REALTIME_UPDATE': {
        const sessionChanged = m.sessionIndex !== r.sessionIndex;
        const over =
          m.phase >= AccSessionPhase.SESSION_OVER && r.phase < AccSessionPhase.SESSION_OVER;
        if (sessionChanged) {
          r.sessionIndex = m.sessionIndex;
          r.seatLaps = new Map();
        }
        r.phase = m.phase;
        if (over || sessionChanged) await this.importResultsFiles(r);
        return;
      }
      case 'REALTIME_CAR_UPDATE':
        await this.carUpdate(r, m);
        return;
      default:
        return;
    }
  }

  /** A car's update: its position; a lap count above the last stored is a completed lap. */
  private async carUpdate(r: AccRunning, m: Extract<AccInbound, { type: 'REALTIME_CAR_UPDATE' }>) {
    const seat = r.carSeat.get(m.carIndex);
    if (seat === undefined) {
      // A car we have not seen in the entry list yet: ask for it; its laps come with the file.
      if (r.connectionId !== null)
        await this.send(r, { type: 'REQUEST_ENTRY_LIST', connectionId: r.connectionId });
      return;
    }
    r.positions.set(seat, m.position);
    const before = r.seatLaps.get(seat) ?? 0;
    if (m.laps <= before) return;
    r.seatLaps.set(seat, m.laps);
    // Laps skipped between two updates are in the results file.
    if (m.laps !== before + 1 || m.lastLap.lapTimeMs === ACC_NO_TIME) return;
    const key = accLapKey(r, r.sessionIndex, seat, m.laps);
    const body = lapIngest.safeParse({
      client_lap_id: key.slice(0, 100),
      sim: 'acc',
      track: r.track,
      layout: '',
      car: r.models[seat],
      lap_ms: m.lastLap.lapTimeMs,
      sectors_ms: m.lastLap.splits.filter((s) => s !== ACC_NO_TIME),
      cuts: m.lastLap.isInvalid ? 1 : 0,
      driver_guid: '',
      driver_name: '',
      recorded_at: new Date().toISOString(),
    });
    if (!body.success) {
      this.log.warn(
        { party: r.partyId, seat, lapMs: m.lastLap.lapTimeMs },
        'ACC lap out of bounds',
      );
      return;
    }
    const stored = await storeLap(
      this.db,
      { calendarId: r.seats[seat], sourceKey: key },
      body.data,
    );
    if (stored.created) r.lapsStored += 1;
  }

  /** Every results file accServer wrote since this run started, once: laps that came live meet
   *  their file copy on (seat, lap number); laps missed live and results go to the seat's
   *  booked customer through the import's `seatOf` (0081's one rule). */
  private async importResultsFiles(r: AccRunning) {
    let names: string[];
    try {
      names = (await fsp.readdir(this.resultsDir())).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(this.resultsDir(), name);
      if (r.importedFiles.has(file)) continue;
      const stat = await fsp.stat(file);
      if (stat.mtimeMs < r.startedAt - 1000) continue;
      const bytes = await fsp.readFile(file);
      // The file's car ids are accServer's; its race numbers are our seats.
      const seatOfCar = new Map<number, number>();
      let sessionIndex = r.sessionIndex;
      try {
        const d = JSON.parse(decodeAccConfigFile(bytes)) as {
          sessionIndex?: number;
          sessionResult?: {
            leaderBoardLines?: { car?: { carId?: number; raceNumber?: number } }[];
          };
        };
        if (Number.isInteger(d.sessionIndex)) sessionIndex = d.sessionIndex!;
        for (const line of d.sessionResult?.leaderBoardLines ?? []) {
          const seat = Number(line.car?.raceNumber) - 1;
          if (Number.isInteger(line.car?.carId) && seat >= 0 && seat < r.seats.length)
            seatOfCar.set(line.car!.carId!, seat);
        }
      } catch {
        // Not JSON: the import answers why.
      }
      try {
        const result = await importResults(this.db, null, bytes, new Date(), {
          replacesSessionKey: liveSessionKey('acc', r.partyId, r.runId, sessionIndex),
          sourceKey: (lap, i) => {
            const seat = lap.carId === null ? undefined : seatOfCar.get(lap.carId);
            return seat === undefined
              ? `accsrv:${r.partyId}:${r.runId}:${sessionIndex}:file:${i}`
              : accLapKey(r, sessionIndex, seat, lap.carLap);
          },
          seatOf: (carId) => {
            const seat = seatOfCar.get(carId);
            return seat === undefined ? undefined : r.seats[seat];
          },
        });
        r.imports.push(result);
        r.importedFiles.add(file);
        r.filesFor.add(sessionIndex);
      } catch (err) {
        // One transaction: nothing of it is stored. Tried again at the next session's end and
        // when the server stops; a file that cannot be read at all is not tried again.
        if (err instanceof ValidationError) r.importedFiles.add(file);
        r.importErrors += 1;
        this.log.error({ err, party: r.partyId, file }, 'ACC results file not imported');
      }
    }
  }
}
