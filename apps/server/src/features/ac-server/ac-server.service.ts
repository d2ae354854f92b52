// Paddock and the Assetto Corsa dedicated server (docs/decisions/0031): for a party, write
// server_cfg.ini / entry_list.ini from its event, start acServer, listen to its UDP plugin
// messages (laps live, the results file at the end of a session) and send it commands.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { lapIngest, type ImportResponse } from '@paddock/contract/laps';
import type { AcServerCommand, AcServerStatus } from '@paddock/contract/races';
import type { AcCommand, AcServerMessage } from '@paddock/ac-protocol/codec';
import { openAcPluginSocket, type AcPluginSocket } from '@paddock/ac-protocol/plugin-socket';
import { FeedRecorder } from '@paddock/ac-protocol/feed-recording';
import { writeServerConfig } from '@paddock/ac-protocol/server-config';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { tracks } from '../../db/schema/laps';
import { parties } from '../../db/schema/races';
import { HttpError, NotFound, ValidationError } from '../../plugins/errors';
import { importResults, storeLap } from '../laps/laps.service';
import { relayPeer, type SignalHooks } from '../races/launcher-signals';
import { getEvent } from '../races/load-events';
import { toServerRace, ServerRaceError, type ServerRaceLookups } from './server-race';
import { serverLookups } from './server-lookups';
import { AccServerLink, type AccServerConfig } from '../acc-server/acc-server.service';
import { acTimingEvents } from '../live-timing/sim-events';
import { liveFeedOf, type LiveFeed } from '../live-timing/live-feed';
import { liveSessionKey, storeLiveResult } from '../live-timing/live-result';

export type AcServerConfig = NonNullable<Config['acServer']>;

const STOP_GRACE_MS = 5000;

interface Running {
  partyId: number;
  eventId: number;
  folder: string;
  slot: number;
  /** Tells this run's laps from an earlier run of the same party. */
  runId: string;
  socket: AcPluginSocket;
  child: ChildProcess;
  exited: Promise<void>;
  /** Car id → seat. */
  seats: number[];
  models: string[];
  /** What a seat's race.ini [REMOTE] needs to join: the game port and the join password. */
  gamePort: number;
  password: string;
  track: { key: string; layout: string };
  /** Car id → who is in it now (NEW_CONNECTION). */
  drivers: Map<number, { guid: string; name: string }>;
  /** NEW_SESSIONs seen: each session (and restart) has its own laps. */
  sessionSeq: number;
  /** Car id → LAP_COMPLETEDs in this session: the lap's number, as the results file counts. */
  carLaps: Map<number, number>;
  sessionName: string | null;
  lapsStored: number;
  imports: ImportResponse[];
  /** Messages are handled one after another (END_SESSION's import after the last lap). */
  queue: Promise<void>;
  /** The raw feed's file, when FEED_RECORD_DIR is set (decision 0122). */
  recorder: FeedRecorder | null;
  /** Sessions whose results file was imported: their live result is not stored after it. */
  filesFor: Set<number>;
}

/**
 * The key a lap of this run is stored under, whether it came live or from the results file:
 * its car and its number for that car in the session (decision 0081). Not the driver, which a
 * missed NEW_CONNECTION leaves out of the live lap, nor the time, which two laps can share.
 */
export function acLapKey(
  run: { partyId: number; runId: string },
  sessionSeq: number,
  carId: number,
  carLap: number,
) {
  return `acsrv:${run.partyId}:${run.runId}:${sessionSeq}:car${carId}:${carLap}`;
}

export class AcServerLink {
  private readonly running = new Map<number, Running>();
  /** Starts under way: a second start of the same party waits for the first. */
  private readonly starting = new Map<number, Promise<AcServerStatus>>();

  /** A party on an ACC track runs on accServer instead (decision 0090). */
  readonly acc: AccServerLink;

  constructor(
    private readonly db: Db,
    private readonly config: AcServerConfig | undefined,
    private readonly dataDir: string,
    private readonly log: FastifyBaseLogger,
    accConfig?: AccServerConfig,
    /** The live timing hub and where feeds are recorded (decision 0122). */
    private readonly live: LiveFeed = {},
  ) {
    this.acc = new AccServerLink(db, accConfig, log, live);
  }

  get enabled() {
    return this.config !== undefined;
  }

  private off(): never {
    throw new HttpError(
      409,
      'The AC dedicated server link is off: set AC_SERVER_PATH to the acServer binary.',
      'ac_server_off',
    );
  }

  status(partyId: number | null): AcServerStatus {
    if (partyId !== null && this.acc.run(partyId)) return this.acc.status(partyId);
    const r = partyId === null ? undefined : this.running.get(partyId);
    return {
      running: Boolean(r),
      party: partyId,
      folder: r?.folder ?? null,
      pid: r?.child.pid ?? null,
      plugin_port: r?.socket.port ?? null,
      game_port: r?.gamePort ?? null,
      password: r?.password ?? null,
      session: r?.sessionName ?? null,
      laps_stored: r?.lapsStored ?? 0,
    };
  }

  /** The parties whose server runs on this instance. */
  get parties(): number[] {
    return [...this.running.keys(), ...this.acc.parties];
  }

  /** The running server of a party (tests wait on `queue` and read `imports`). */
  run(partyId: number) {
    return this.running.get(partyId);
  }

  /** Where the seats of this event join its party's running server (their race.ini [REMOTE]);
   *  null when none runs here. Told to a rig's socket when it connects (decision 0033). */
  remoteOf(eventId: number): { ip: string; port: number; password: string } | null {
    if (!this.config) return null;
    for (const r of this.running.values())
      if (r.eventId === eventId)
        return { ip: this.config.serverHost, port: r.gamePort, password: r.password };
    return null;
  }

  /**
   * Race control's signal hooks (decision 0033): a SESSION_START on a party's host event starts
   * the party's server first (when AC_SERVER_PATH is set), so its seats hear where to join before
   * they hear the start, and an event the server cannot run refuses the start with the reasons;
   * SESSION_EXIT stops it once the seats were told.
   */
  readonly signalHooks: SignalHooks = {
    before: async (eventId, signal) => {
      if (signal !== 'SESSION_START' || (!this.config && !this.acc.enabled)) return;
      const [party] = await this.db
        .select({ id: parties.id })
        .from(parties)
        .where(eq(parties.hostEventId, eventId));
      if (party) await this.start(party.id, { quietWhenOff: true });
    },
    after: async (eventId, signal) => {
      if (signal !== 'SESSION_EXIT') return;
      // The signal went already: a stop that fails is logged, not answered as the signal's error.
      for (const id of this.acc.parties)
        if (this.acc.run(id)?.eventId === eventId)
          await this.acc
            .stop(id)
            .catch((err: unknown) =>
              this.log.error({ err, party: id }, 'accServer not stopped on SESSION_EXIT'),
            );
      for (const r of [...this.running.values()])
        if (r.eventId === eventId)
          await this.stop(r.partyId).catch((err: unknown) =>
            this.log.error({ err, party: r.partyId }, 'acServer not stopped on SESSION_EXIT'),
          );
    },
  };

  /** The party whose host event this is; a 400 when the event is no party's. */
  async partyOfEvent(eventId: number): Promise<number> {
    await getEvent(this.db, eventId);
    const [party] = await this.db
      .select({ id: parties.id })
      .from(parties)
      .where(eq(parties.hostEventId, eventId));
    if (!party)
      throw ValidationError.nonField('Only a party runs on the dedicated server: host one first.');
    return party.id;
  }

  /** POST /races/events/{id}/server. */
  async command(eventId: number, body: AcServerCommand): Promise<AcServerStatus> {
    const partyId = await this.partyOfEvent(eventId);
    if (body.command === 'start') return this.start(partyId);
    if (body.command === 'stop') {
      await this.stop(partyId);
      return this.status(partyId);
    }
    if (this.acc.run(partyId))
      throw ValidationError.field('command', 'The ACC server only starts and stops from Paddock.');
    const r = this.running.get(partyId);
    if (!this.config) this.off();
    if (!r) throw new HttpError(409, 'The server of this party is not running.', 'not_running');
    let command: AcCommand;
    if (body.command === 'next_session') command = { type: 'NEXT_SESSION' };
    else if (body.command === 'restart_session') command = { type: 'RESTART_SESSION' };
    else if (body.command === 'broadcast_chat') {
      if (!body.message) throw ValidationError.field('message', 'Say what to broadcast.');
      command = { type: 'BROADCAST_CHAT', message: body.message };
    } else {
      if (body.car === undefined || body.car >= r.seats.length)
        throw ValidationError.field('car', `Name a car from 0 to ${r.seats.length - 1}.`);
      command = { type: 'KICK_USER', carId: body.car };
    }
    await r.socket.send(command);
    return this.status(partyId);
  }

  /** Writes the party's config files, opens the plugin listener and starts acServer. */
  async start(partyId: number, opts: { quietWhenOff?: boolean } = {}): Promise<AcServerStatus> {
    if (this.running.has(partyId) || this.acc.run(partyId)) return this.status(partyId);
    const pending = this.starting.get(partyId);
    if (pending) return pending;
    const started = this.startAny(partyId, opts).finally(() => this.starting.delete(partyId));
    this.starting.set(partyId, started);
    return started;
  }

  /** The party's sim is its track's: an ACC track runs on accServer, any other on acServer. */
  private async startAny(partyId: number, opts: { quietWhenOff?: boolean }) {
    const [party] = await this.db.select().from(parties).where(eq(parties.id, partyId));
    if (!party) throw new NotFound();
    const event = await getEvent(this.db, party.hostEventId);
    const [track] = event.track
      ? await this.db.select({ sim: tracks.sim }).from(tracks).where(eq(tracks.id, event.track))
      : [];
    const lookups = await serverLookups(this.db, event);
    if (track?.sim === 'acc') {
      if (!this.acc.enabled) {
        if (opts.quietWhenOff) return this.status(partyId);
        throw new HttpError(
          409,
          'The ACC dedicated server link is off: set ACC_SERVER_PATH to accServer.',
          'acc_server_off',
        );
      }
      return this.acc.start(partyId, party.name, event, lookups);
    }
    if (!this.config) {
      if (opts.quietWhenOff) return this.status(partyId);
      this.off();
    }
    return this.startNow(party, event, lookups, this.config);
  }

  private async startNow(
    party: typeof parties.$inferSelect,
    event: Awaited<ReturnType<typeof getEvent>>,
    lookups: ServerRaceLookups,
    config: AcServerConfig,
  ): Promise<AcServerStatus> {
    const partyId = party.id;

    let slot = 0;
    const used = new Set([...this.running.values()].map((r) => r.slot));
    while (used.has(slot)) slot += 1;
    const pluginPort = config.ports.plugin === 0 ? 0 : config.ports.plugin + slot;
    const serverPluginPort = config.ports.serverPlugin + slot;

    let run: Running | undefined;
    const socket = await openAcPluginSocket({
      listen: { host: config.pluginHost, port: pluginPort },
      server: { host: config.serverHost, port: serverPluginPort },
      onDatagram: (datagram) => run?.recorder?.record(datagram),
      onMessage: (message) => {
        if (!run) return;
        const r = run;
        // The tower first: it waits for no lap's storage.
        this.live.timing?.feed(r.eventId, acTimingEvents(message));
        void this.enqueue(r, () => this.handle(r, message));
      },
      onBadDatagram: (error, from) =>
        this.log.warn({ error, from, party: partyId }, 'unreadable AC plugin datagram'),
    });

    try {
      let mapped;
      try {
        mapped = toServerRace(event, lookups, {
          serverName: `Paddock ${party.name}`.slice(0, 120),
          password: crypto.randomBytes(6).toString('hex'),
          adminPassword: crypto.randomBytes(12).toString('hex'),
          ports: {
            tcp: config.ports.game + slot,
            udp: config.ports.game + slot,
            http: config.ports.http + slot,
          },
          plugin: { address: `${config.pluginHost}:${socket.port}`, localPort: serverPluginPort },
        });
      } catch (error) {
        if (error instanceof ServerRaceError)
          throw new ValidationError({ non_field_errors: error.problems });
        throw error;
      }
      const files = writeServerConfig(mapped.race);
      const folder = path.join(this.dataDir, 'ac-server', `party-${partyId}`);
      await fsp.mkdir(folder, { recursive: true });
      const cfg = path.join(folder, 'server_cfg.ini');
      const entryList = path.join(folder, 'entry_list.ini');
      await fsp.writeFile(cfg, files.serverCfg);
      await fsp.writeFile(entryList, files.entryList);

      const log = fs.createWriteStream(path.join(folder, 'acServer.log'), { flags: 'a' });
      const child = spawn(config.path, ['-c', cfg, '-e', entryList], {
        cwd: path.dirname(config.path),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      const exited = new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.once('error', (error) => {
          this.log.error({ err: error, party: partyId }, 'acServer did not start');
          resolve();
        });
      });
      run = {
        partyId,
        eventId: event.id,
        folder,
        slot,
        runId: Date.now().toString(36),
        socket,
        child,
        exited,
        seats: mapped.seats,
        models: mapped.race.entries.map((e) => e.model),
        gamePort: mapped.race.ports.tcp,
        password: mapped.race.password,
        track: lookups.track!,
        drivers: new Map(),
        sessionSeq: 0,
        carLaps: new Map(),
        sessionName: null,
        lapsStored: 0,
        imports: [],
        queue: Promise.resolve(),
        recorder: null,
        filesFor: new Set(),
      };
      this.running.set(partyId, run);
      const started = run;
      const feed = liveFeedOf(this.live, event, lookups, 'ac', party.name, (tower) =>
        // On the run's queue: a results file imported first leaves the live result out.
        this.enqueue(started, async () => {
          if (started.filesFor.has(tower.session_seq) || event.track === null) return;
          await storeLiveResult(this.db, tower, {
            sessionKey: liveSessionKey('ac', partyId, started.runId, tower.session_seq),
            trackId: event.track,
            serverName: mapped.race.serverName,
            seats: mapped.seats,
            cars: event.entries.map((e) => e.car ?? event.cars[0]),
          });
        }),
      );
      run.recorder = feed.recorder;
      // The party's seats learn where to join (their race.ini [REMOTE]) over the event's socket.
      await relayPeer(this.db, event.id, {
        data: {
          ac_server: { ip: config.serverHost, port: run.gamePort, password: run.password },
        },
        from: null,
        socket: 'ac-server',
      });
      void exited.then(async () => {
        if (this.running.get(partyId) !== started) return;
        // acServer ended by itself: the link goes with it.
        this.log.warn({ party: partyId }, 'acServer exited');
        this.running.delete(partyId);
        await started.queue;
        await started.socket.close();
        await this.endFeed(started);
      });
      this.log.info({ party: partyId, folder, pid: child.pid }, 'acServer started');
      return this.status(partyId);
    } catch (error) {
      await socket.close();
      throw error;
    }
  }

  /** Runs `work` after the run's messages so far (one at a time); a failure is logged. */
  private enqueue(r: Running, work: () => Promise<void>): Promise<void> {
    r.queue = r.queue
      .then(work)
      .catch((error: unknown) =>
        this.log.error({ err: error, party: r.partyId }, 'AC server message not handled'),
      );
    return r.queue;
  }

  /** Stops the party's server (a no-op when none runs): the process, then the listener. */
  async stop(partyId: number): Promise<void> {
    await this.acc.stop(partyId);
    const r = this.running.get(partyId);
    if (!r) return;
    this.running.delete(partyId);
    if (r.child.exitCode === null && r.child.signalCode === null) {
      r.child.kill('SIGTERM');
      const timer = setTimeout(() => r.child.kill('SIGKILL'), STOP_GRACE_MS);
      await r.exited;
      clearTimeout(timer);
    }
    await r.queue;
    await r.socket.close();
    await this.endFeed(r);
    this.log.info({ party: partyId }, 'acServer stopped');
  }

  /** The feed ended: its tower stays as it was last written, its recording is closed. */
  private async endFeed(r: Running) {
    await this.live.timing?.close(r.eventId);
    await r.recorder?.close();
  }

  /** A party ended (on any instance: the change feed says `parties`): its server stops. */
  async stopEnded(): Promise<void> {
    const ids = this.parties;
    if (ids.length === 0) return;
    const alive = await this.db
      .select({ id: parties.id })
      .from(parties)
      .where(inArray(parties.id, ids));
    for (const id of ids) if (!alive.some((p) => p.id === id)) await this.stop(id);
  }

  async close() {
    await this.acc.close();
    for (const partyId of [...this.running.keys()]) await this.stop(partyId);
  }

  private async handle(r: Running, message: AcServerMessage): Promise<void> {
    switch (message.type) {
      case 'NEW_SESSION':
        r.sessionSeq += 1;
        r.carLaps = new Map();
        r.sessionName = message.name;
        break;
      case 'NEW_CONNECTION':
        r.drivers.set(message.carId, { guid: message.driverGuid, name: message.driverName });
        break;
      case 'CONNECTION_CLOSED':
        r.drivers.delete(message.carId);
        break;
      case 'LAP_COMPLETED':
        await this.lap(r, message.carId, message.lapTimeMs, message.cuts);
        break;
      case 'END_SESSION':
        await this.importSession(r, message.resultsFile);
        break;
      default:
        break;
    }
  }

  /** LAP_COMPLETED: car id → entry → seat; the ingestion finds the customer and tells the boards. */
  private async lap(r: Running, carId: number, lapMs: number, cuts: number) {
    // Counted for every lap, stored or not: the results file lists them all.
    const carLap = (r.carLaps.get(carId) ?? 0) + 1;
    r.carLaps.set(carId, carLap);
    const key = acLapKey(r, r.sessionSeq, carId, carLap);
    const calendarId = r.seats[carId];
    if (calendarId === undefined) {
      this.log.warn({ party: r.partyId, carId }, 'lap of a car that is not in the entry list');
      return;
    }
    const driver = r.drivers.get(carId) ?? { guid: '', name: '' };
    const body = lapIngest.safeParse({
      client_lap_id: key.slice(0, 100),
      sim: 'ac',
      track: r.track.key,
      layout: r.track.layout,
      car: r.models[carId],
      lap_ms: lapMs,
      cuts,
      driver_guid: driver.guid.slice(0, 64),
      driver_name: driver.name.slice(0, 120),
      recorded_at: new Date().toISOString(),
    });
    if (!body.success) {
      this.log.warn({ party: r.partyId, carId, lapMs }, 'AC server lap out of bounds, not stored');
      return;
    }
    const stored = await storeLap(this.db, { calendarId, sourceKey: key }, body.data);
    if (stored.created) r.lapsStored += 1;
  }

  /**
   * END_SESSION: the results file through the import. Its car ids are the entry list's, so a
   * lap missed live and a result go to the seat's booked customer as a live lap does; a lap
   * that came live meets its file copy on (car, lap number) and is stored once.
   */
  private async importSession(r: Running, resultsFile: string) {
    if (!resultsFile) return;
    const file = path.isAbsolute(resultsFile)
      ? resultsFile
      : path.resolve(path.dirname(this.config!.path), resultsFile);
    let bytes: Buffer;
    try {
      bytes = await fsp.readFile(file);
    } catch {
      // A session stopped early may have no file: its laps came live.
      this.log.warn({ party: r.partyId, file }, 'results file not found, nothing imported');
      return;
    }
    const seq = r.sessionSeq;
    try {
      const result = await importResults(this.db, null, bytes, new Date(), {
        replacesSessionKey: liveSessionKey('ac', r.partyId, r.runId, seq),
        sourceKey: (lap, i) =>
          lap.carId === null
            ? `acsrv:${r.partyId}:${r.runId}:${seq}:file:${i}`
            : acLapKey(r, seq, lap.carId, lap.carLap),
        seatOf: (carId) => r.seats[carId],
      });
      r.imports.push(result);
      r.filesFor.add(seq);
    } catch (error) {
      this.log.error({ err: error, party: r.partyId, file }, 'results file not imported');
    }
  }
}
