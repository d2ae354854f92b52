// The rig agent: follows its seat's race event on the launcher socket, obeys the host signals
// through a SimAdapter, reports the sim's state, and delivers laps. Outbound connections only.
import crypto from 'node:crypto';
import WebSocket from 'ws';
import {
  SOCKET_CLOSE_LEFT_EVENT,
  SOCKET_CLOSE_NO_EVENT,
  type SocketServerMessage,
} from '@paddock/contract/races';
import { HttpError, PaddockApi } from './api';
import type { AgentConfig, RemoteServer } from './config';
import { OfflineQueue } from './queue';
import type { SeatRace, SimAdapter } from './sim-adapter';
import type { LapIngest, RaceEvent, RigReport, RigWhoami } from './types';

/** No ping nor message for this long: the socket is dead (Paddock pings every 30 s). */
export const SILENCE_MS = 75_000;

export interface AgentOptions {
  config: AgentConfig;
  adapter: SimAdapter;
  log?: (line: string) => void;
  /** MP_BRIEF: what to show the driver (logged in any case). */
  onBrief?: (text: string) => void;
  /** How often pending laps are retried while nothing else triggers it. */
  lapRetryMs?: number;
}

/** One line describing the race, for MP_BRIEF and the log. */
export function briefOf(race: SeatRace): string {
  const sessions = [...race.event.sessions]
    .sort((a, b) => a.ordering - b.ordering)
    .map((s) => `${s.name} ${s.duration}${s.duration_is_laps ? ' laps' : ' min'}`)
    .join(', ');
  const where = race.track
    ? `${race.track.name}${race.track.layout ? ` (${race.track.layout})` : ''}`
    : 'no track';
  return `${where} · ${race.car?.name ?? 'no car'} · ${sessions}${race.remote ? ' · multiplayer' : ''}`;
}

export class RigAgent {
  readonly api: PaddockApi;
  readonly queue: OfflineQueue;
  /** The seat, once Paddock answered who this rig is. */
  seat: RigWhoami | null = null;
  /** The event as the socket last described it (merged). */
  event: RaceEvent | null = null;
  /** The last state reported (delivered or queued). */
  state: RigReport = 'exited';
  private ws: WebSocket | null = null;
  private generation = 0;
  private stopped = true;
  private retryMs: number;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private lapTimer: NodeJS.Timeout | null = null;
  private unwatchLaps: (() => void) | null = null;
  private commands: Promise<void> = Promise.resolve();
  private flushingLaps: Promise<void> | null = null;
  private remote: RemoteServer | null = null;
  private reportAfterConnect = false;
  private readonly cache = new Map<string, unknown>();
  private readonly log: (line: string) => void;

  constructor(private readonly options: AgentOptions) {
    this.api = new PaddockApi(options.config.server, options.config.key);
    this.queue = new OfflineQueue(options.config.dataDir);
    this.retryMs = options.config.retryMs;
    this.log = options.log ?? ((line) => console.log(`[paddock-rig] ${line}`));
  }

  get connected() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** The event id the socket is on (or is opening). */
  eventId: number | null = null;

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
    this.lapTimer = setInterval(() => void this.flushLaps(), this.options.lapRetryMs ?? 5000);
    this.unwatchLaps =
      this.options.adapter.watchLaps?.((lap) => this.submitLap(lap), this.log) ?? null;
    const adapter = this.options.adapter;
    if (adapter.resume?.(this.onSimExit)) {
      this.log(`${adapter.name} is still running from before: watching it`);
      this.report('launched');
    }
  }

  private onSimExit = (code: number | null) => {
    if (this.stopped) return; // a later run of the agent reports it (it resumes the sim)
    this.log(`${this.options.adapter.name} exited (${code ?? 'signal'})`);
    this.report('exited');
  };

  /** Closes the socket; with `stopSim`, stops the sim too. Pending items stay queued on disk. */
  async close({ stopSim = false } = {}) {
    // Stopped first, while the socket may still say so.
    if (stopSim) await this.options.adapter.stop();
    this.stopped = true;
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.lapTimer) clearInterval(this.lapTimer);
    this.unwatchLaps?.();
    this.ws?.close(1000);
    this.ws = null;
    await this.commands;
    await this.flushingLaps;
  }

  // ------------------------------------------------------------------ connection

  /** Asks which event the seat runs now and opens its socket (after a backoff on failure). */
  private async connect() {
    if (this.stopped) return;
    const generation = ++this.generation;
    try {
      const me = await this.api.whoami();
      if (generation !== this.generation) return;
      this.seat = me;
      if (me.event === null) throw new Error(`seat ${me.calendar_name} has no race event`);
      this.open(me.event, generation);
    } catch (e) {
      if (generation !== this.generation) return;
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      this.log(`cannot reach Paddock: ${(e as Error).message}${cause ? ` (${cause})` : ''}`);
      this.scheduleReconnect(generation);
    }
  }

  private scheduleReconnect(generation: number) {
    if (this.stopped || generation !== this.generation) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.config.retryMaxMs);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.connect(), wait);
  }

  /** Drops the socket (its close is ignored) and connects again, to `eventId` or the seat's. */
  private reconnect(eventId?: number) {
    const old = this.ws;
    this.ws = null;
    this.event = null;
    if (eventId === undefined) void this.connect();
    else this.open(eventId, ++this.generation);
    old?.close(1000);
  }

  private open(eventId: number, generation: number) {
    this.eventId = eventId;
    const ws = new WebSocket(this.api.socketUrl(eventId), { headers: this.api.headers });
    this.ws = ws;
    // Paddock pings every 30 s: a socket silent for longer than two pings is dead (a Wi-Fi drop
    // that closed nothing), so end it and reconnect rather than wait for TCP to notice.
    let watchdog: NodeJS.Timeout | null = null;
    const heard = () => {
      if (watchdog) clearTimeout(watchdog);
      watchdog = setTimeout(() => ws.terminate(), SILENCE_MS);
    };
    ws.on('open', heard);
    ws.on('ping', heard);
    ws.on('message', heard);
    ws.on('close', () => watchdog && clearTimeout(watchdog));
    ws.on('open', () => {
      if (generation !== this.generation) return;
      this.retryMs = this.options.config.retryMs;
      this.log(`connected to event ${eventId}`);
      if (this.reportAfterConnect) {
        this.reportAfterConnect = false;
        this.report(this.options.adapter.running ? 'launched' : 'exited');
      }
      this.flushStates();
      void this.flushLaps();
    });
    ws.on('message', (data) => {
      if (generation !== this.generation) return;
      let message: SocketServerMessage;
      try {
        message = JSON.parse(String(data)) as SocketServerMessage;
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.on('error', (e) => {
      if (generation === this.generation) this.log(`socket: ${e.message}`);
    });
    ws.on('close', (code) => {
      if (generation !== this.generation || this.stopped) return;
      this.ws = null;
      this.event = null;
      if (code === SOCKET_CLOSE_LEFT_EVENT || code === SOCKET_CLOSE_NO_EVENT) {
        // The seat left the party (or the event is gone): ask again which event it runs.
        this.log(`event ${eventId} closed the socket (${code}): reading the seat's event again`);
        void this.connect();
      } else {
        this.log(`socket closed (${code}); retrying in ${this.retryMs / 1000} s`);
        this.scheduleReconnect(generation);
      }
    });
  }

  private onMessage(message: SocketServerMessage) {
    switch (message.type) {
      case 'model_updated': {
        const data = message.data;
        if (!this.event || (data.id !== undefined && data.id !== this.event.id))
          this.event = data as RaceEvent;
        else this.event = { ...this.event, ...data };
        const movedTo = this.event.moved_to;
        if (movedTo && this.event.calendar === this.seat?.calendar) {
          this.log(`the seat joined a party: moving to event ${movedTo}`);
          this.reconnect(movedTo);
        }
        return;
      }
      case 'signal': {
        const { signal, excluded_calendars } = message;
        this.commands = this.commands
          .then(() => this.onSignal(signal, excluded_calendars))
          .catch((e) => this.log(`${signal} failed: ${(e as Error).message}`));
        return;
      }
      case 'server': {
        // An AC party's acServer, or an ACC party's accServer (decision 0090).
        const data = message.data as { ac_server?: RemoteServer; acc_server?: RemoteServer } | null;
        const server = data?.ac_server ?? data?.acc_server;
        if (server && typeof server.ip === 'string' && Number.isInteger(server.port)) {
          this.remote = { ip: server.ip, port: server.port, password: server.password ?? '' };
          this.log(`party server: ${server.ip}:${server.port}`);
        }
        return;
      }
      case 'error':
        this.log(`Paddock refused a message: ${message.detail}`);
    }
  }

  // ------------------------------------------------------------------ signals

  /** Runs a host signal as the launcher's would (the booked session's start and end, 0120). */
  signal(signal: 'SESSION_START' | 'SESSION_EXIT'): Promise<void> {
    this.commands = this.commands
      .then(() => this.onSignal(signal, []))
      .catch((e) => this.log(`${signal} failed: ${(e as Error).message}`));
    return this.commands;
  }

  /** Waits until the commands received so far are done (tests, shutdown). */
  idle() {
    return this.commands;
  }

  private async onSignal(signal: string, excluded: number[]) {
    const adapter = this.options.adapter;
    switch (signal) {
      case 'SESSION_START': {
        if (this.seat && excluded.includes(this.seat.calendar)) {
          this.log('SESSION_START: this seat is left out');
          return;
        }
        if (adapter.running) {
          // Idempotent: the sim runs already; say so again.
          this.report('launched');
          return;
        }
        const race = await this.race();
        const files = await adapter.prepare(race);
        this.log(`${adapter.name}: wrote ${files.join(', ')}`);
        this.report('initialized');
        try {
          await adapter.launch(this.onSimExit);
        } catch (e) {
          this.report('exited');
          throw e;
        }
        this.log(`${adapter.name} launched: ${briefOf(race)}`);
        this.report('launched');
        return;
      }
      case 'SESSION_EXIT':
        if (adapter.running) await adapter.stop();
        else this.report('exited');
        return;
      case 'RELOAD':
        this.log('RELOAD: reconnecting');
        this.cache.clear();
        this.remote = null;
        this.reportAfterConnect = true;
        this.reconnect();
        return;
      case 'MP_BRIEF': {
        const text = briefOf(await this.race());
        this.log(`brief: ${text}`);
        this.options.onBrief?.(text);
        return;
      }
    }
  }

  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, await load());
    return this.cache.get(key) as T;
  }

  /** The event's ids resolved to what the sim needs. */
  async race(): Promise<SeatRace> {
    const seat = this.seat ?? (this.seat = await this.api.whoami());
    const id = this.eventId ?? seat.event;
    if (id === null) throw new Error('the seat has no event');
    const event =
      this.event && this.event.sessions && this.event.entries
        ? this.event
        : await this.api.event(id);
    const entry = event.entries.find((e) => e.calendar === seat.calendar);
    const carId = entry?.car ?? event.cars[0] ?? null;
    const skinId = entry?.car ? entry.skin : null;
    const [track, car, skin] = await Promise.all([
      event.track === null
        ? null
        : this.cached(`track:${event.track}`, () => this.api.track(event.track!)),
      carId === null ? null : this.cached(`car:${carId}`, () => this.api.car(carId)),
      carId === null || skinId === null
        ? null
        : this.cached(`skin:${skinId}`, () => this.api.skin(carId, skinId)),
    ]);
    return {
      event,
      seat: seat.calendar,
      seatName: seat.calendar_name,
      track,
      car,
      skin,
      driverName: this.options.config.driverName ?? seat.calendar_name,
      remote: event.party === null ? null : (this.remote ?? this.options.config.acServer ?? null),
    };
  }

  // ------------------------------------------------------------------ states and laps

  /** Reports a state: sent now when the socket is open, else kept until it is. */
  report(state: RigReport) {
    this.state = state;
    this.queue.add({ kind: 'state', state });
    this.flushStates();
  }

  private flushStates() {
    for (const item of this.queue.list('state')) {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ type: 'state', state: item.state }));
      this.queue.done(item.id);
    }
  }

  /** A lap from the sim: queued on disk, then delivered (now, or when Paddock answers again). */
  submitLap(lap: Omit<LapIngest, 'client_lap_id'> & { client_lap_id?: string }) {
    const full: LapIngest = { ...lap, client_lap_id: lap.client_lap_id ?? crypto.randomUUID() };
    this.queue.add({ kind: 'lap', lap: full });
    void this.flushLaps();
    return full.client_lap_id;
  }

  /** Sends the pending laps in order; stops at the first that cannot be delivered now. */
  flushLaps(): Promise<void> {
    if (this.flushingLaps) return this.flushingLaps;
    this.flushingLaps = (async () => {
      for (const item of this.queue.list('lap')) {
        try {
          await this.api.postLap(item.lap);
          this.queue.done(item.id);
        } catch (e) {
          if (e instanceof HttpError && e.status === 400) {
            // Refused as it is: sending it again would not change the answer.
            this.log(`lap ${item.lap.client_lap_id} refused, dropped: ${e.message}`);
            this.queue.done(item.id);
            continue;
          }
          return;
        }
      }
    })().finally(() => (this.flushingLaps = null));
    return this.flushingLaps;
  }
}
