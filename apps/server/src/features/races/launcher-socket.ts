import crypto from 'node:crypto';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam } from '@paddock/contract/common';
import {
  SOCKET_CLOSE_LEFT_EVENT,
  SOCKET_CLOSE_NO_EVENT,
  socketClientMessage,
  type RaceEvent,
  type SocketServerMessage,
} from '@paddock/contract/races';
import type { Deps } from '../../deps';
import type { SocketOptions } from './socket-options';
import type { Db } from '../../db/client';
import { hasPermission, loadAuthUser, type AuthUser } from '../../plugins/auth';
import { RELAY_MAX_BYTES, type ChangeFeed, type Relay } from '../../plugins/changes';
import { Forbidden, HttpError, Unauthorized, ValidationError } from '../../plugins/errors';
import { rigFromHeader } from '../laps/laps.service';
import { type SignalHooks, relayPeer, reportState, sendSignal } from './launcher-signals';
import { getEvent, loadEvents, rigMayUse } from './load-events';
import { rigJoined, rigLeft, rigRound } from './rig-presence';
import { redeemTicket } from './socket-tickets';
import { changedFields } from './update-event';

const PERMISSION = 'leaderboards.can_manage_race_events' as const;

type Client = {
  id: string;
  socket: WebSocket;
  /** The rig's seat, for a rig; null for staff. */
  calendar: number | null;
  staff: AuthUser | null;
  alive: boolean;
  /** A client's own messages are handled one after another, in order. */
  inbox: Promise<void>;
  /** A rig's row in `rig_connections` being written (its removal waits for it). */
  presence: Promise<void>;
};

type Room = {
  clients: Set<Client>;
  /** The event as this instance last told its sockets, to send only what changed. */
  snapshot: RaceEvent | null;
  /** Changes, signals and joins of one event, handled one after another, in order. */
  queue: Promise<void>;
};

/**
 * This instance's sockets per race event. Changes (`events:{id}` on the change feed) and relays
 * (host signals, peer messages) arrive from PostgreSQL LISTEN, whichever instance wrote them, and
 * go to every local socket of that event in the order they were committed.
 */
export class LauncherHub {
  private readonly rooms = new Map<number, Room>();
  private readonly unsubscribe: (() => void)[] = [];
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    changes: ChangeFeed,
    private readonly options: SocketOptions,
    private readonly extras: {
      signalHooks?: SignalHooks;
      /** Sent to a socket after the whole event when it joins (the party's AC server). */
      onJoin?: (eventId: number) => SocketServerMessage[];
    } = {},
  ) {
    this.unsubscribe.push(
      changes.subscribe((change) => {
        if (change.topic === 'events' && change.id !== null) this.changed(change.id);
      }),
      changes.subscribeRelay((relay) => {
        if (relay.topic === 'events') this.relayed(relay);
      }),
      // The feed is back after a loss (changes may have been missed): every room's seats get
      // their event afresh, as after a change.
      changes.subscribeCache((message) => {
        if (message === null && changes.connected)
          for (const eventId of this.rooms.keys()) this.changed(eventId);
      }),
    );
    this.pinger = setInterval(() => this.ping(), options.pingMs);
    this.pinger.unref();
  }

  /** Sockets open on this instance (for tests and the bench). */
  get size() {
    let n = 0;
    for (const room of this.rooms.values()) n += room.clients.size;
    return n;
  }

  private closed: { code: number; reason: string } | null = null;

  /** Closes every socket with `code` (1001 going away, 1012 service restart: both say reconnect). */
  close(code = 1001, reason = 'Server closing') {
    if (this.closed) return;
    this.closed = { code, reason };
    for (const stop of this.unsubscribe) stop();
    if (this.pinger) clearInterval(this.pinger);
    for (const room of this.rooms.values())
      for (const client of room.clients) client.socket.close(code, reason);
    this.rooms.clear();
  }

  private enqueue(room: Room, work: () => Promise<void>) {
    room.queue = room.queue.then(work).catch(() => {
      /* a failed reload is retried by the next change; the socket stays */
    });
  }

  join(
    eventId: number,
    socket: WebSocket,
    who: { calendar: number | null; staff: AuthUser | null },
  ) {
    // Opened on a kept-alive connection after the hub closed (shutting down): go elsewhere.
    if (this.closed) return void socket.close(this.closed.code, this.closed.reason);
    let room = this.rooms.get(eventId);
    if (!room) {
      room = { clients: new Set(), snapshot: null, queue: Promise.resolve() };
      this.rooms.set(eventId, room);
    }
    const client: Client = {
      id: crypto.randomUUID(),
      socket,
      ...who,
      alive: true,
      inbox: Promise.resolve(),
      presence: Promise.resolve(),
    };
    room.clients.add(client);
    const current = room;
    if (who.calendar !== null)
      client.presence = rigJoined(
        this.db,
        client.id,
        who.calendar,
        eventId,
        this.options.pingMs,
      ).catch(() => {
        /* the database is away: the seat shows as not connected, as nothing reaches it either */
      });
    socket.on('pong', () => (client.alive = true));
    socket.on('close', () => {
      if (client.calendar !== null)
        void client.presence
          .then(() => rigLeft(this.db, client.id))
          .catch(() => {
            /* the row expires by itself (decision 0115) */
          });
      current.clients.delete(client);
      if (current.clients.size === 0 && this.rooms.get(eventId) === current)
        this.rooms.delete(eventId);
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      client.inbox = client.inbox
        .then(() => this.received(eventId, client, raw, isBinary))
        .catch(() =>
          this.send(client, { type: 'error', detail: 'The message could not be handled.' }),
        );
    });
    // On connect, the whole event (one model_updated with every field).
    this.enqueue(room, async () => {
      const [event] = await loadEvents(this.db, [eventId]);
      if (!event) return void socket.close(SOCKET_CLOSE_NO_EVENT, 'No such event');
      // Newer than what the others were told (a change whose notice is still on its way): tell
      // them now, so the notice finds nothing new and nobody hears a change twice.
      const news = current.snapshot ? changedFields(current.snapshot, event, 'after') : {};
      current.snapshot = event;
      if (Object.keys(news).length) {
        const text = JSON.stringify({ type: 'model_updated', data: news });
        for (const other of current.clients) if (other !== client) this.sendText(other, text);
      }
      this.send(client, { type: 'model_updated', data: event });
      // A rig that connects after the party's server started learns where to join.
      for (const message of this.extras.onJoin?.(eventId) ?? []) this.send(client, message);
    });
  }

  private changed(eventId: number) {
    const room = this.rooms.get(eventId);
    if (!room) return;
    this.enqueue(room, async () => {
      const [event] = await loadEvents(this.db, [eventId]);
      if (!event) {
        for (const client of room.clients)
          client.socket.close(SOCKET_CLOSE_NO_EVENT, 'No such event');
        return;
      }
      const data = room.snapshot ? changedFields(room.snapshot, event, 'after') : event;
      room.snapshot = event;
      if (Object.keys(data).length === 0) return;
      this.broadcast(room, { type: 'model_updated', data });
      // A rig whose seat left this event (it left the party) goes back to its own.
      for (const client of room.clients)
        if (client.calendar !== null && !event.entries.some((e) => e.calendar === client.calendar))
          client.socket.close(SOCKET_CLOSE_LEFT_EVENT, 'Your seat left this event');
    });
  }

  private relayed(relay: Relay) {
    const room = this.rooms.get(relay.id);
    if (!room) return;
    const data = relay.data as
      | { type: 'signal'; signal: string; excluded_calendars: number[] }
      | { type: 'server'; data: unknown; from: number | null; socket: string };
    this.enqueue(room, async () => {
      if (data.type === 'signal') {
        const message = JSON.stringify({
          type: 'signal',
          signal: data.signal,
          excluded_calendars: data.excluded_calendars,
        });
        for (const client of room.clients)
          // An excluded seat's rig does not start; staff still see the signal.
          if (client.calendar === null || !data.excluded_calendars.includes(client.calendar))
            this.sendText(client, message);
      } else if (data.type === 'server') {
        const message = JSON.stringify({ type: 'server', data: data.data, from: data.from });
        for (const client of room.clients)
          if (client.id !== data.socket) this.sendText(client, message);
      }
    });
  }

  private async received(eventId: number, client: Client, raw: unknown, isBinary: boolean) {
    if (isBinary) return this.send(client, { type: 'error', detail: 'Send JSON text.' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(raw));
    } catch {
      return this.send(client, { type: 'error', detail: 'Send JSON text.' });
    }
    const message = socketClientMessage.safeParse(parsed);
    if (!message.success)
      return this.send(client, { type: 'error', detail: 'Unknown or malformed message.' });
    const m = message.data;
    if (m.type === 'signal') {
      // Rights are read again for each signal: a revoked permission applies at once.
      const staff = client.staff ? await loadAuthUser(this.db, client.staff.id) : null;
      if (!staff || !hasPermission(staff, PERMISSION))
        return this.send(client, { type: 'error', detail: 'Only staff send host signals.' });
      try {
        await sendSignal(this.db, staff, eventId, m, this.extras.signalHooks);
        return;
      } catch (e) {
        // Refused before it was sent (the party's server cannot start): say why.
        if (e instanceof ValidationError || e instanceof HttpError)
          return this.send(client, { type: 'error', detail: e.message });
        throw e;
      }
    }
    if (m.type === 'state') {
      if (client.calendar === null)
        return this.send(client, { type: 'error', detail: 'Only a rig reports its state.' });
      return reportState(this.db, client.calendar, eventId, m.state);
    }
    const size = Buffer.byteLength(JSON.stringify(m.data ?? null));
    if (size > RELAY_MAX_BYTES - 500)
      return this.send(client, { type: 'error', detail: 'The message is too large.' });
    return relayPeer(this.db, eventId, {
      data: m.data ?? null,
      from: client.calendar,
      socket: client.id,
    });
  }

  private broadcast(room: Room, message: SocketServerMessage) {
    const text = JSON.stringify(message);
    for (const client of room.clients) this.sendText(client, text);
  }

  private send(client: Client, message: SocketServerMessage) {
    this.sendText(client, JSON.stringify(message));
  }

  /** A slow consumer (too much unsent) is dropped, so it never holds the others back. */
  private sendText(client: Client, text: string) {
    const socket = client.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.options.maxBufferedBytes) {
      socket.terminate();
      return;
    }
    socket.send(text);
  }

  private ping() {
    const rigs: string[] = [];
    for (const room of this.rooms.values())
      for (const client of room.clients)
        if (client.calendar !== null && client.alive) rigs.push(client.id);
    void rigRound(this.db, rigs, this.options.pingMs).catch(() => {
      /* the database is away: rows are pushed on at the next round */
    });
    for (const room of this.rooms.values())
      for (const client of room.clients) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
  }
}

const socketQuery = z.object({ ticket: z.string().max(200).optional() });

/**
 * `/ws/launcher/events/{id}/`: browsers bring a one-time ticket (`?ticket=`, from POST
 * /api/races/events/{id}/ticket) since they cannot send headers; rigs send `Authorization: Rig
 * <key>`; tools may send a Bearer header. A session token is never read from the URL.
 */
export const launcherSocketRoutes =
  (deps: Deps & { hub: LauncherHub }): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const who = new WeakMap<object, { calendar: number | null; staff: AuthUser | null }>();
    app.route({
      method: 'GET',
      url: '/ws/launcher/events/:id',
      schema: { hide: true, params: idParam, querystring: socketQuery },
      preHandler: async (request) => {
        const eventId = request.params.id;
        const header = request.headers.authorization;
        if (header?.startsWith('Rig ')) {
          const rig = await rigFromHeader(db, header);
          if (!(await rigMayUse(db, rig.calendarId, eventId)))
            throw new Forbidden('This rig key is for another seat.');
          who.set(request, { calendar: rig.calendarId, staff: null });
          return;
        }
        let staff = request.authUser;
        if (!staff && request.query.ticket) {
          const userId = await redeemTicket(db, request.query.ticket, eventId);
          if (userId === null)
            throw new Unauthorized('This ticket is not valid.', 'ticket_not_valid');
          staff = await loadAuthUser(db, userId);
        }
        if (!staff) throw new Unauthorized();
        if (!hasPermission(staff, PERMISSION)) throw new Forbidden();
        await getEvent(db, eventId);
        who.set(request, { calendar: null, staff });
      },
      handler: async (_request, reply) =>
        reply.status(426).header('upgrade', 'websocket').send({ detail: 'Upgrade Required' }),
      wsHandler: (socket, request) => {
        const params = request.params as { id: number };
        deps.hub.join(params.id, socket, who.get(request)!);
      },
    });
  };
