// The Assetto Corsa dedicated server's UDP plugin protocol (protocol version 4).
//
// One datagram is one message: a message id byte, then the fields, little-endian.
// Strings come in two kinds, and the protocol picks one per field:
//   - "narrow": a length byte (count of bytes), then the bytes (ASCII in practice; read as UTF-8);
//   - "wide":   a length byte (count of characters), then 4 bytes per character, UTF-32LE.
// Layouts follow Kunos' example plugin as published in minolin/acplugins, with the leaderboard
// byte AC 1.7 added; docs/decisions/0026-ac-protocol.md has the sources and where servers disagree.

/** The protocol version the server announces in VERSION, NEW_SESSION and SESSION_INFO. */
export const AC_PROTOCOL_VERSION = 4;

/** Message ids, both directions. */
export const AcMessageId = {
  // server → plugin
  NEW_SESSION: 50,
  NEW_CONNECTION: 51,
  CONNECTION_CLOSED: 52,
  CAR_UPDATE: 53,
  CAR_INFO: 54,
  END_SESSION: 55,
  VERSION: 56,
  CHAT: 57,
  CLIENT_LOADED: 58,
  SESSION_INFO: 59,
  ERROR: 60,
  LAP_COMPLETED: 73,
  CLIENT_EVENT: 130,
  // plugin → server
  REALTIMEPOS_INTERVAL: 200,
  GET_CAR_INFO: 201,
  SEND_CHAT: 202,
  BROADCAST_CHAT: 203,
  GET_SESSION_INFO: 204,
  SET_SESSION_INFO: 205,
  KICK_USER: 206,
  NEXT_SESSION: 207,
  RESTART_SESSION: 208,
  ADMIN_COMMAND: 209,
} as const;
export type AcMessageType = keyof typeof AcMessageId;

/** Sub-types of CLIENT_EVENT. */
export const AcClientEventId = { COLLISION_WITH_CAR: 10, COLLISION_WITH_ENV: 11 } as const;

/** Session types as the server numbers them in NEW_SESSION / SESSION_INFO / SET_SESSION_INFO. */
export const AcSessionType = {
  BOOKING: 0,
  PRACTICE: 1,
  QUALIFY: 2,
  RACE: 3,
  DRAG: 4,
  DRIFT: 5,
} as const;

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

/** NEW_SESSION (a session started) and SESSION_INFO (the answer to GET_SESSION_INFO). */
export interface SessionInfoFields {
  version: number;
  /** The session this message describes. */
  sessionIndex: number;
  /** The session the server is running now. */
  currentSessionIndex: number;
  sessionCount: number;
  serverName: string;
  track: string;
  trackConfig: string;
  name: string;
  sessionType: number;
  /** Session length in minutes (0 for a race by laps). */
  timeMinutes: number;
  laps: number;
  waitTimeSeconds: number;
  ambientTemp: number;
  roadTemp: number;
  weatherGraphics: string;
  /** Milliseconds since the session start; negative during a race's wait time. */
  elapsedMs: number;
}

export interface ConnectionFields {
  driverName: string;
  driverGuid: string;
  carId: number;
  carModel: string;
  carSkin: string;
}

export interface LeaderboardEntry {
  carId: number;
  /** The car's best lap (qualifying, practice) or total time (race), ms. */
  timeMs: number;
  laps: number;
  /** The car has taken the chequered flag. */
  completed: boolean;
}

interface CollisionFields {
  carId: number;
  impactSpeed: number;
  worldPosition: Vector3;
  relativePosition: Vector3;
}

export type AcServerMessage =
  | ({ type: 'NEW_SESSION' } & SessionInfoFields)
  | ({ type: 'SESSION_INFO' } & SessionInfoFields)
  | ({ type: 'NEW_CONNECTION' } & ConnectionFields)
  | ({ type: 'CONNECTION_CLOSED' } & ConnectionFields)
  | {
      type: 'CAR_UPDATE';
      carId: number;
      position: Vector3;
      velocity: Vector3;
      gear: number;
      engineRpm: number;
      normalizedSplinePosition: number;
    }
  | {
      type: 'CAR_INFO';
      carId: number;
      isConnected: boolean;
      carModel: string;
      carSkin: string;
      driverName: string;
      driverTeam: string;
      driverGuid: string;
    }
  | { type: 'END_SESSION'; /** Path of the results JSON the server wrote. */ resultsFile: string }
  | { type: 'VERSION'; version: number }
  | { type: 'CHAT'; carId: number; message: string }
  | { type: 'CLIENT_LOADED'; carId: number }
  | { type: 'ERROR'; message: string }
  | {
      type: 'LAP_COMPLETED';
      carId: number;
      lapTimeMs: number;
      cuts: number;
      leaderboard: LeaderboardEntry[];
      gripLevel: number;
    }
  | ({ type: 'CLIENT_EVENT'; event: 'COLLISION_WITH_CAR'; otherCarId: number } & CollisionFields)
  | ({ type: 'CLIENT_EVENT'; event: 'COLLISION_WITH_ENV' } & CollisionFields);

export type AcCommand =
  | { type: 'REALTIMEPOS_INTERVAL'; intervalMs: number }
  | { type: 'GET_CAR_INFO'; carId: number }
  | { type: 'SEND_CHAT'; carId: number; message: string }
  | { type: 'BROADCAST_CHAT'; message: string }
  | { type: 'GET_SESSION_INFO'; /** -1 asks for the current session. */ sessionIndex: number }
  | {
      type: 'SET_SESSION_INFO';
      sessionIndex: number;
      name: string;
      sessionType: number;
      laps: number;
      /** The session length; sources disagree on the unit (see the decision record). */
      time: number;
      waitTimeSeconds: number;
    }
  | { type: 'KICK_USER'; carId: number }
  | { type: 'NEXT_SESSION' }
  | { type: 'RESTART_SESSION' }
  | { type: 'ADMIN_COMMAND'; command: string };

export type AcMessage = AcServerMessage | AcCommand;

export type AcDecodeErrorCode =
  'EMPTY' | 'UNKNOWN_MESSAGE' | 'UNKNOWN_CLIENT_EVENT' | 'TRUNCATED' | 'TRAILING_BYTES';

/** Why a datagram could not be read. Returned, never thrown. */
export interface AcDecodeError {
  code: AcDecodeErrorCode;
  /** The first byte of the datagram, when there was one. */
  messageId?: number;
  /** Where reading stopped. */
  offset: number;
  detail: string;
}

export type AcDecodeResult<T extends AcMessage = AcMessage> =
  { ok: true; message: T } | { ok: false; error: AcDecodeError };

/** A message that cannot be written (a value out of its field's range, a string too long). */
export class AcEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AcEncodeError';
  }
}

const SERVER_MESSAGE_IDS: ReadonlySet<number> = new Set([
  50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 73, 130,
]);

export function isServerMessage(message: AcMessage): message is AcServerMessage {
  return SERVER_MESSAGE_IDS.has(AcMessageId[message.type]);
}

// ---------------------------------------------------------------------------------------------
// Writing

class Writer {
  private buf = Buffer.alloc(256);
  private len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const bigger = Buffer.alloc(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(bigger, 0, 0, this.len);
    this.buf = bigger;
  }

  private int(value: number, min: number, max: number, field: string): number {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new AcEncodeError(`${field}: ${value} is not an integer in ${min}..${max}`);
    }
    return value;
  }

  u8(value: number, field: string): this {
    this.room(1);
    this.buf.writeUInt8(this.int(value, 0, 0xff, field), this.len);
    this.len += 1;
    return this;
  }
  bool(value: boolean): this {
    return this.u8(value ? 1 : 0, 'bool');
  }
  u16(value: number, field: string): this {
    this.room(2);
    this.buf.writeUInt16LE(this.int(value, 0, 0xffff, field), this.len);
    this.len += 2;
    return this;
  }
  i16(value: number, field: string): this {
    this.room(2);
    this.buf.writeInt16LE(this.int(value, -0x8000, 0x7fff, field), this.len);
    this.len += 2;
    return this;
  }
  u32(value: number, field: string): this {
    this.room(4);
    this.buf.writeUInt32LE(this.int(value, 0, 0xffffffff, field), this.len);
    this.len += 4;
    return this;
  }
  i32(value: number, field: string): this {
    this.room(4);
    this.buf.writeInt32LE(this.int(value, -0x80000000, 0x7fffffff, field), this.len);
    this.len += 4;
    return this;
  }
  f32(value: number): this {
    this.room(4);
    this.buf.writeFloatLE(value, this.len);
    this.len += 4;
    return this;
  }
  vec3(v: Vector3): this {
    return this.f32(v.x).f32(v.y).f32(v.z);
  }
  /** Length byte (bytes), then the UTF-8 bytes. */
  narrow(value: string, field: string): this {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length > 0xff) throw new AcEncodeError(`${field}: longer than 255 bytes`);
    this.u8(bytes.length, field);
    this.room(bytes.length);
    bytes.copy(this.buf, this.len);
    this.len += bytes.length;
    return this;
  }
  /** Length byte (characters), then 4 bytes per character, UTF-32LE. */
  wide(value: string, field: string): this {
    const codePoints = Array.from(value, (ch) => ch.codePointAt(0) ?? 0xfffd);
    if (codePoints.length > 0xff) throw new AcEncodeError(`${field}: longer than 255 characters`);
    this.u8(codePoints.length, field);
    this.room(codePoints.length * 4);
    for (const cp of codePoints) {
      this.buf.writeUInt32LE(cp, this.len);
      this.len += 4;
    }
    return this;
  }
  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

function writeSessionInfo(w: Writer, m: SessionInfoFields): void {
  w.u8(m.version, 'version')
    .u8(m.sessionIndex, 'sessionIndex')
    .u8(m.currentSessionIndex, 'currentSessionIndex')
    .u8(m.sessionCount, 'sessionCount')
    .wide(m.serverName, 'serverName')
    .narrow(m.track, 'track')
    .narrow(m.trackConfig, 'trackConfig')
    .narrow(m.name, 'name')
    .u8(m.sessionType, 'sessionType')
    .u16(m.timeMinutes, 'timeMinutes')
    .u16(m.laps, 'laps')
    .u16(m.waitTimeSeconds, 'waitTimeSeconds')
    .u8(m.ambientTemp, 'ambientTemp')
    .u8(m.roadTemp, 'roadTemp')
    .narrow(m.weatherGraphics, 'weatherGraphics')
    .i32(m.elapsedMs, 'elapsedMs');
}

function writeConnection(w: Writer, m: ConnectionFields): void {
  w.wide(m.driverName, 'driverName')
    .wide(m.driverGuid, 'driverGuid')
    .u8(m.carId, 'carId')
    .narrow(m.carModel, 'carModel')
    .narrow(m.carSkin, 'carSkin');
}

/** The datagram for one message. Throws AcEncodeError when a value does not fit its field. */
export function encodeMessage(m: AcMessage): Buffer {
  const w = new Writer().u8(AcMessageId[m.type], 'id');
  switch (m.type) {
    case 'NEW_SESSION':
    case 'SESSION_INFO':
      writeSessionInfo(w, m);
      break;
    case 'NEW_CONNECTION':
    case 'CONNECTION_CLOSED':
      writeConnection(w, m);
      break;
    case 'CAR_UPDATE':
      w.u8(m.carId, 'carId')
        .vec3(m.position)
        .vec3(m.velocity)
        .u8(m.gear, 'gear')
        .u16(m.engineRpm, 'engineRpm')
        .f32(m.normalizedSplinePosition);
      break;
    case 'CAR_INFO':
      w.u8(m.carId, 'carId')
        .bool(m.isConnected)
        .wide(m.carModel, 'carModel')
        .wide(m.carSkin, 'carSkin')
        .wide(m.driverName, 'driverName')
        .wide(m.driverTeam, 'driverTeam')
        .wide(m.driverGuid, 'driverGuid');
      break;
    case 'END_SESSION':
      w.wide(m.resultsFile, 'resultsFile');
      break;
    case 'VERSION':
      w.u8(m.version, 'version');
      break;
    case 'CHAT':
      w.u8(m.carId, 'carId').wide(m.message, 'message');
      break;
    case 'CLIENT_LOADED':
      w.u8(m.carId, 'carId');
      break;
    case 'ERROR':
      w.wide(m.message, 'message');
      break;
    case 'LAP_COMPLETED':
      w.u8(m.carId, 'carId').u32(m.lapTimeMs, 'lapTimeMs').u8(m.cuts, 'cuts');
      w.u8(m.leaderboard.length, 'leaderboard.length');
      for (const e of m.leaderboard) {
        w.u8(e.carId, 'leaderboard.carId')
          .u32(e.timeMs, 'leaderboard.timeMs')
          .u16(e.laps, 'leaderboard.laps')
          .bool(e.completed);
      }
      w.f32(m.gripLevel);
      break;
    case 'CLIENT_EVENT':
      w.u8(AcClientEventId[m.event], 'event').u8(m.carId, 'carId');
      if (m.event === 'COLLISION_WITH_CAR') w.u8(m.otherCarId, 'otherCarId');
      w.f32(m.impactSpeed).vec3(m.worldPosition).vec3(m.relativePosition);
      break;
    case 'REALTIMEPOS_INTERVAL':
      w.u16(m.intervalMs, 'intervalMs');
      break;
    case 'GET_CAR_INFO':
    case 'KICK_USER':
      w.u8(m.carId, 'carId');
      break;
    case 'SEND_CHAT':
      w.u8(m.carId, 'carId').wide(m.message, 'message');
      break;
    case 'BROADCAST_CHAT':
      w.wide(m.message, 'message');
      break;
    case 'GET_SESSION_INFO':
      w.i16(m.sessionIndex, 'sessionIndex');
      break;
    case 'SET_SESSION_INFO':
      w.u8(m.sessionIndex, 'sessionIndex')
        .wide(m.name, 'name')
        .u8(m.sessionType, 'sessionType')
        .u32(m.laps, 'laps')
        .u32(m.time, 'time')
        .u32(m.waitTimeSeconds, 'waitTimeSeconds');
      break;
    case 'NEXT_SESSION':
    case 'RESTART_SESSION':
      break;
    case 'ADMIN_COMMAND':
      w.wide(m.command, 'command');
      break;
  }
  return w.done();
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Thrown inside the reader only; decodeMessage turns it into an AcDecodeError. */
class Stop {
  constructor(
    readonly code: AcDecodeErrorCode,
    readonly offset: number,
    readonly detail: string,
  ) {}
}

class Reader {
  offset = 0;
  constructor(private readonly buf: Buffer) {}

  private need(n: number, field: string): number {
    if (this.offset + n > this.buf.length) {
      throw new Stop(
        'TRUNCATED',
        this.offset,
        `${field}: needs ${n} byte(s) at offset ${this.offset}, the datagram has ${this.buf.length}`,
      );
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }
  u8(field: string): number {
    return this.buf.readUInt8(this.need(1, field));
  }
  bool(field: string): boolean {
    return this.u8(field) !== 0;
  }
  u16(field: string): number {
    return this.buf.readUInt16LE(this.need(2, field));
  }
  i16(field: string): number {
    return this.buf.readInt16LE(this.need(2, field));
  }
  u32(field: string): number {
    return this.buf.readUInt32LE(this.need(4, field));
  }
  i32(field: string): number {
    return this.buf.readInt32LE(this.need(4, field));
  }
  f32(field: string): number {
    return this.buf.readFloatLE(this.need(4, field));
  }
  vec3(field: string): Vector3 {
    return { x: this.f32(field), y: this.f32(field), z: this.f32(field) };
  }
  narrow(field: string): string {
    const n = this.u8(field);
    const at = this.need(n, field);
    return this.buf.toString('utf8', at, at + n);
  }
  wide(field: string): string {
    const n = this.u8(field);
    const at = this.need(n * 4, field);
    let out = '';
    for (let i = 0; i < n; i++) {
      const cp = this.buf.readUInt32LE(at + i * 4);
      const valid = cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
      out += String.fromCodePoint(valid ? cp : 0xfffd);
    }
    return out;
  }
  get remaining(): number {
    return this.buf.length - this.offset;
  }
}

function readSessionInfo(r: Reader): SessionInfoFields {
  return {
    version: r.u8('version'),
    sessionIndex: r.u8('sessionIndex'),
    currentSessionIndex: r.u8('currentSessionIndex'),
    sessionCount: r.u8('sessionCount'),
    serverName: r.wide('serverName'),
    track: r.narrow('track'),
    trackConfig: r.narrow('trackConfig'),
    name: r.narrow('name'),
    sessionType: r.u8('sessionType'),
    timeMinutes: r.u16('timeMinutes'),
    laps: r.u16('laps'),
    waitTimeSeconds: r.u16('waitTimeSeconds'),
    ambientTemp: r.u8('ambientTemp'),
    roadTemp: r.u8('roadTemp'),
    weatherGraphics: r.narrow('weatherGraphics'),
    elapsedMs: r.i32('elapsedMs'),
  };
}

function readConnection(r: Reader): ConnectionFields {
  return {
    driverName: r.wide('driverName'),
    driverGuid: r.wide('driverGuid'),
    carId: r.u8('carId'),
    carModel: r.narrow('carModel'),
    carSkin: r.narrow('carSkin'),
  };
}

function readBody(id: number, r: Reader): AcMessage {
  switch (id) {
    case AcMessageId.NEW_SESSION:
      return { type: 'NEW_SESSION', ...readSessionInfo(r) };
    case AcMessageId.SESSION_INFO:
      return { type: 'SESSION_INFO', ...readSessionInfo(r) };
    case AcMessageId.NEW_CONNECTION:
      return { type: 'NEW_CONNECTION', ...readConnection(r) };
    case AcMessageId.CONNECTION_CLOSED:
      return { type: 'CONNECTION_CLOSED', ...readConnection(r) };
    case AcMessageId.CAR_UPDATE:
      return {
        type: 'CAR_UPDATE',
        carId: r.u8('carId'),
        position: r.vec3('position'),
        velocity: r.vec3('velocity'),
        gear: r.u8('gear'),
        engineRpm: r.u16('engineRpm'),
        normalizedSplinePosition: r.f32('normalizedSplinePosition'),
      };
    case AcMessageId.CAR_INFO:
      return {
        type: 'CAR_INFO',
        carId: r.u8('carId'),
        isConnected: r.bool('isConnected'),
        carModel: r.wide('carModel'),
        carSkin: r.wide('carSkin'),
        driverName: r.wide('driverName'),
        driverTeam: r.wide('driverTeam'),
        driverGuid: r.wide('driverGuid'),
      };
    case AcMessageId.END_SESSION:
      return { type: 'END_SESSION', resultsFile: r.wide('resultsFile') };
    case AcMessageId.VERSION:
      return { type: 'VERSION', version: r.u8('version') };
    case AcMessageId.CHAT:
      return { type: 'CHAT', carId: r.u8('carId'), message: r.wide('message') };
    case AcMessageId.CLIENT_LOADED:
      return { type: 'CLIENT_LOADED', carId: r.u8('carId') };
    case AcMessageId.ERROR:
      return { type: 'ERROR', message: r.wide('message') };
    case AcMessageId.LAP_COMPLETED: {
      const carId = r.u8('carId');
      const lapTimeMs = r.u32('lapTimeMs');
      const cuts = r.u8('cuts');
      const count = r.u8('leaderboard.length');
      const leaderboard: LeaderboardEntry[] = [];
      for (let i = 0; i < count; i++) {
        leaderboard.push({
          carId: r.u8('leaderboard.carId'),
          timeMs: r.u32('leaderboard.timeMs'),
          laps: r.u16('leaderboard.laps'),
          completed: r.bool('leaderboard.completed'),
        });
      }
      return {
        type: 'LAP_COMPLETED',
        carId,
        lapTimeMs,
        cuts,
        leaderboard,
        gripLevel: r.f32('gripLevel'),
      };
    }
    case AcMessageId.CLIENT_EVENT: {
      const at = r.offset;
      const event = r.u8('event');
      const carId = r.u8('carId');
      if (event === AcClientEventId.COLLISION_WITH_CAR) {
        const otherCarId = r.u8('otherCarId');
        return {
          type: 'CLIENT_EVENT',
          event: 'COLLISION_WITH_CAR',
          carId,
          otherCarId,
          impactSpeed: r.f32('impactSpeed'),
          worldPosition: r.vec3('worldPosition'),
          relativePosition: r.vec3('relativePosition'),
        };
      }
      if (event === AcClientEventId.COLLISION_WITH_ENV) {
        return {
          type: 'CLIENT_EVENT',
          event: 'COLLISION_WITH_ENV',
          carId,
          impactSpeed: r.f32('impactSpeed'),
          worldPosition: r.vec3('worldPosition'),
          relativePosition: r.vec3('relativePosition'),
        };
      }
      throw new Stop('UNKNOWN_CLIENT_EVENT', at, `client event type ${event} is not known`);
    }
    case AcMessageId.REALTIMEPOS_INTERVAL:
      return { type: 'REALTIMEPOS_INTERVAL', intervalMs: r.u16('intervalMs') };
    case AcMessageId.GET_CAR_INFO:
      return { type: 'GET_CAR_INFO', carId: r.u8('carId') };
    case AcMessageId.SEND_CHAT:
      return { type: 'SEND_CHAT', carId: r.u8('carId'), message: r.wide('message') };
    case AcMessageId.BROADCAST_CHAT:
      return { type: 'BROADCAST_CHAT', message: r.wide('message') };
    case AcMessageId.GET_SESSION_INFO:
      return { type: 'GET_SESSION_INFO', sessionIndex: r.i16('sessionIndex') };
    case AcMessageId.SET_SESSION_INFO:
      return {
        type: 'SET_SESSION_INFO',
        sessionIndex: r.u8('sessionIndex'),
        name: r.wide('name'),
        sessionType: r.u8('sessionType'),
        laps: r.u32('laps'),
        time: r.u32('time'),
        waitTimeSeconds: r.u32('waitTimeSeconds'),
      };
    case AcMessageId.KICK_USER:
      return { type: 'KICK_USER', carId: r.u8('carId') };
    case AcMessageId.NEXT_SESSION:
      return { type: 'NEXT_SESSION' };
    case AcMessageId.RESTART_SESSION:
      return { type: 'RESTART_SESSION' };
    case AcMessageId.ADMIN_COMMAND:
      return { type: 'ADMIN_COMMAND', command: r.wide('command') };
    default:
      throw new Stop('UNKNOWN_MESSAGE', 0, `message id ${id} is not part of the protocol`);
  }
}

/**
 * Reads one datagram, in either direction. Never throws and never reads past the buffer:
 * an empty, truncated, unknown or over-long datagram gives `{ ok: false, error }`.
 * Bytes left over after a complete message are an error too, because they mean the layout
 * was read wrongly (a different server version or a wrong string kind).
 */
export function decodeMessage(datagram: Uint8Array): AcDecodeResult {
  const buf = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (buf.length === 0) {
    return { ok: false, error: { code: 'EMPTY', offset: 0, detail: 'empty datagram' } };
  }
  const id = buf[0];
  const r = new Reader(buf);
  r.offset = 1;
  try {
    const message = readBody(id, r);
    if (r.remaining > 0) {
      return {
        ok: false,
        error: {
          code: 'TRAILING_BYTES',
          messageId: id,
          offset: r.offset,
          detail: `${r.remaining} byte(s) left after a complete ${message.type}`,
        },
      };
    }
    return { ok: true, message };
  } catch (e) {
    if (e instanceof Stop) {
      return {
        ok: false,
        error: { code: e.code, messageId: id, offset: e.offset, detail: e.detail },
      };
    }
    // Only a bug in this file could get here; still a typed error, never a crash of the listener.
    return {
      ok: false,
      error: { code: 'TRUNCATED', messageId: id, offset: r.offset, detail: String(e) },
    };
  }
}

/** Reads a datagram sent by the server; a command (id ≥ 200) is refused as UNKNOWN_MESSAGE. */
export function decodeServerMessage(datagram: Uint8Array): AcDecodeResult<AcServerMessage> {
  const result = decodeMessage(datagram);
  if (result.ok && !isServerMessage(result.message)) {
    return {
      ok: false,
      error: {
        code: 'UNKNOWN_MESSAGE',
        messageId: datagram[0],
        offset: 0,
        detail: `${result.message.type} is a command, not a server message`,
      },
    };
  }
  return result as AcDecodeResult<AcServerMessage>;
}

/** Reads a datagram sent to the server; a server message (id < 200) is refused as UNKNOWN_MESSAGE. */
export function decodeCommand(datagram: Uint8Array): AcDecodeResult<AcCommand> {
  const result = decodeMessage(datagram);
  if (result.ok && isServerMessage(result.message)) {
    return {
      ok: false,
      error: {
        code: 'UNKNOWN_MESSAGE',
        messageId: datagram[0],
        offset: 0,
        detail: `${result.message.type} is a server message, not a command`,
      },
    };
  }
  return result as AcDecodeResult<AcCommand>;
}
