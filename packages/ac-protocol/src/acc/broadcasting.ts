// Assetto Corsa Competizione's broadcasting protocol (UDP, protocol version 4), both directions.
//
// One datagram is one message: a type byte, then the fields, little-endian. Strings are a u16
// byte count then UTF-8. Layouts as Kunos' broadcasting SDK sample (ksBroadcastingNetwork) reads
// and writes them, checked against public ports and a public byte capture; the sources are in
// docs/decisions/0090-acc-driven-like-ac.md. Decoding never throws and never reads past the
// buffer, as the AC codec (decision 0026): a wrong car index or lap time must not be stored.

export const ACC_BROADCASTING_VERSION = 4;

/** Client → game. */
export const AccOutboundId = {
  REGISTER_COMMAND_APPLICATION: 1,
  UNREGISTER_COMMAND_APPLICATION: 9,
  REQUEST_ENTRY_LIST: 10,
  REQUEST_TRACK_DATA: 11,
} as const;

/** Game → client. */
export const AccInboundId = {
  REGISTRATION_RESULT: 1,
  REALTIME_UPDATE: 2,
  REALTIME_CAR_UPDATE: 3,
  ENTRY_LIST: 4,
  TRACK_DATA: 5,
  ENTRY_LIST_CAR: 6,
  BROADCASTING_EVENT: 7,
} as const;

/** RaceSessionType of the SDK. */
export const AccSessionType = {
  PRACTICE: 0,
  QUALIFYING: 4,
  SUPERPOLE: 9,
  RACE: 10,
  HOTLAP: 11,
  HOTSTINT: 12,
  HOTLAP_SUPERPOLE: 13,
  REPLAY: 14,
} as const;

/** SessionPhase of the SDK: a session's results are written once it reaches SESSION_OVER. */
export const AccSessionPhase = {
  NONE: 0,
  STARTING: 1,
  PRE_FORMATION: 2,
  FORMATION_LAP: 3,
  PRE_SESSION: 4,
  SESSION: 5,
  SESSION_OVER: 6,
  POST_SESSION: 7,
  RESULT_UI: 8,
} as const;

/** BroadcastingCarEventType of the SDK. */
export const AccEventType = {
  NONE: 0,
  GREEN_FLAG: 1,
  SESSION_OVER: 2,
  PENALTY_COMM_MSG: 3,
  ACCIDENT: 4,
  LAP_COMPLETED: 5,
  BEST_SESSION_LAP: 6,
  BEST_PERSONAL_LAP: 7,
} as const;

/** The value the game sends for "no time" (a lap not driven, a split not reached). */
export const ACC_NO_TIME = 0x7fffffff;

export interface AccLapInfo {
  /** ACC_NO_TIME when there is no lap. */
  lapTimeMs: number;
  carIndex: number;
  driverIndex: number;
  splits: number[];
  isInvalid: boolean;
  isValidForBest: boolean;
  isOutlap: boolean;
  isInlap: boolean;
}

export interface AccDriverInfo {
  firstName: string;
  lastName: string;
  shortName: string;
  category: number;
  nationality: number;
}

export type AccInbound =
  | {
      type: 'REGISTRATION_RESULT';
      connectionId: number;
      success: boolean;
      /** The SDK reads the byte as "read-only when 0". */
      readOnly: boolean;
      errorMessage: string;
    }
  | {
      type: 'REALTIME_UPDATE';
      eventIndex: number;
      sessionIndex: number;
      sessionType: number;
      phase: number;
      sessionTimeMs: number;
      sessionEndTimeMs: number;
      focusedCarIndex: number;
      activeCameraSet: string;
      activeCamera: string;
      currentHudPage: string;
      /** Present while a replay plays. */
      replay: { sessionTimeMs: number; remainingTimeMs: number } | null;
      timeOfDaySeconds: number;
      ambientTemp: number;
      trackTemp: number;
      /** Tenths, 0–10, as sent. */
      clouds: number;
      rainLevel: number;
      wetness: number;
      bestSessionLap: AccLapInfo;
    }
  | {
      type: 'REALTIME_CAR_UPDATE';
      carIndex: number;
      driverIndex: number;
      driverCount: number;
      /** -1 reverse, 0 neutral, 1… (the byte minus 2, as the SDK). */
      gear: number;
      worldPosX: number;
      worldPosY: number;
      yaw: number;
      /** 0 none, 1 track, 2 pit lane, 3 pit entry, 4 pit exit. */
      carLocation: number;
      kmh: number;
      position: number;
      cupPosition: number;
      trackPosition: number;
      splinePosition: number;
      /** Laps completed in the session. */
      laps: number;
      deltaMs: number;
      bestSessionLap: AccLapInfo;
      lastLap: AccLapInfo;
      currentLap: AccLapInfo;
    }
  | { type: 'ENTRY_LIST'; connectionId: number; carIndexes: number[] }
  | {
      type: 'TRACK_DATA';
      connectionId: number;
      trackName: string;
      trackId: number;
      trackMeters: number;
      cameraSets: { name: string; cameras: string[] }[];
      hudPages: string[];
    }
  | {
      type: 'ENTRY_LIST_CAR';
      carIndex: number;
      carModelType: number;
      teamName: string;
      raceNumber: number;
      cupCategory: number;
      currentDriverIndex: number;
      nationality: number;
      drivers: AccDriverInfo[];
    }
  | {
      type: 'BROADCASTING_EVENT';
      eventType: number;
      message: string;
      timeMs: number;
      carIndex: number;
    };

export type AccOutbound =
  | {
      type: 'REGISTER_COMMAND_APPLICATION';
      displayName: string;
      connectionPassword: string;
      updateIntervalMs: number;
      commandPassword: string;
    }
  /** One byte, as the SDK's `Disconnect()` sends it: the game knows the sender by its address. */
  | { type: 'UNREGISTER_COMMAND_APPLICATION' }
  | { type: 'REQUEST_ENTRY_LIST'; connectionId: number }
  | { type: 'REQUEST_TRACK_DATA'; connectionId: number };

export type AccDecodeErrorCode =
  'EMPTY' | 'UNKNOWN_MESSAGE' | 'TRUNCATED' | 'TRAILING_BYTES' | 'BAD_VERSION';
export interface AccDecodeError {
  code: AccDecodeErrorCode;
  messageId: number | null;
  offset: number;
  detail: string;
}
export type AccDecodeResult<T> = { ok: true; message: T } | { ok: false; error: AccDecodeError };

/** A value that does not fit its field: a programming error on our side, not input. */
export class AccEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccEncodeError';
  }
}

class Writer {
  private readonly parts: Buffer[] = [];
  private int(bytes: number, value: number, signed: boolean, what: string) {
    const max = signed ? 2 ** (bytes * 8 - 1) - 1 : 2 ** (bytes * 8) - 1;
    const min = signed ? -(2 ** (bytes * 8 - 1)) : 0;
    if (!Number.isInteger(value) || value < min || value > max)
      throw new AccEncodeError(`${what} ${value} does not fit ${bytes} bytes`);
    const b = Buffer.alloc(bytes);
    if (signed) b.writeIntLE(value, 0, bytes);
    else b.writeUIntLE(value, 0, bytes);
    this.parts.push(b);
    return this;
  }
  u8 = (v: number, what = 'byte') => this.int(1, v, false, what);
  u16 = (v: number, what = 'u16') => this.int(2, v, false, what);
  i32 = (v: number, what = 'i32') => this.int(4, v, true, what);
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
    return this;
  }
  bool = (v: boolean) => this.u8(v ? 1 : 0);
  str(s: string, what = 'string') {
    const bytes = Buffer.from(s, 'utf8');
    this.u16(bytes.length, `${what} length`);
    this.parts.push(bytes);
    return this;
  }
  lap(l: AccLapInfo) {
    this.i32(l.lapTimeMs, 'lap time').u16(l.carIndex, 'car index').u16(l.driverIndex);
    this.u8(l.splits.length, 'split count');
    for (const s of l.splits) this.i32(s, 'split');
    return this.bool(l.isInvalid).bool(l.isValidForBest).bool(l.isOutlap).bool(l.isInlap);
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

export function encodeAccInbound(m: AccInbound): Buffer {
  const w = new Writer().u8(AccInboundId[m.type]);
  switch (m.type) {
    case 'REGISTRATION_RESULT':
      return w
        .i32(m.connectionId)
        .bool(m.success)
        .u8(m.readOnly ? 0 : 1)
        .str(m.errorMessage)
        .done();
    case 'REALTIME_UPDATE':
      w.u16(m.eventIndex).u16(m.sessionIndex).u8(m.sessionType).u8(m.phase);
      w.f32(m.sessionTimeMs).f32(m.sessionEndTimeMs).i32(m.focusedCarIndex);
      w.str(m.activeCameraSet)
        .str(m.activeCamera)
        .str(m.currentHudPage)
        .bool(m.replay !== null);
      if (m.replay) w.f32(m.replay.sessionTimeMs).f32(m.replay.remainingTimeMs);
      w.f32(m.timeOfDaySeconds).u8(m.ambientTemp).u8(m.trackTemp);
      return w.u8(m.clouds).u8(m.rainLevel).u8(m.wetness).lap(m.bestSessionLap).done();
    case 'REALTIME_CAR_UPDATE':
      w.u16(m.carIndex, 'car index')
        .u16(m.driverIndex)
        .u8(m.driverCount)
        .u8(m.gear + 2, 'gear');
      w.f32(m.worldPosX).f32(m.worldPosY).f32(m.yaw).u8(m.carLocation).u16(m.kmh);
      w.u16(m.position).u16(m.cupPosition).u16(m.trackPosition).f32(m.splinePosition);
      w.u16(m.laps, 'laps').i32(m.deltaMs);
      return w.lap(m.bestSessionLap).lap(m.lastLap).lap(m.currentLap).done();
    case 'ENTRY_LIST':
      w.i32(m.connectionId).u16(m.carIndexes.length);
      for (const c of m.carIndexes) w.u16(c, 'car index');
      return w.done();
    case 'TRACK_DATA':
      w.i32(m.connectionId).str(m.trackName).i32(m.trackId).i32(m.trackMeters);
      w.u8(m.cameraSets.length, 'camera set count');
      for (const set of m.cameraSets) {
        w.str(set.name).u8(set.cameras.length, 'camera count');
        for (const c of set.cameras) w.str(c);
      }
      w.u8(m.hudPages.length, 'HUD page count');
      for (const p of m.hudPages) w.str(p);
      return w.done();
    case 'ENTRY_LIST_CAR':
      w.u16(m.carIndex, 'car index').u8(m.carModelType).str(m.teamName).i32(m.raceNumber);
      w.u8(m.cupCategory).u8(m.currentDriverIndex).u16(m.nationality);
      w.u8(m.drivers.length, 'driver count');
      for (const d of m.drivers)
        w.str(d.firstName).str(d.lastName).str(d.shortName).u8(d.category).u16(d.nationality);
      return w.done();
    case 'BROADCASTING_EVENT':
      return w.u8(m.eventType).str(m.message).i32(m.timeMs).i32(m.carIndex).done();
  }
}

export function encodeAccOutbound(m: AccOutbound): Buffer {
  const w = new Writer().u8(AccOutboundId[m.type]);
  if (m.type === 'REGISTER_COMMAND_APPLICATION')
    return w
      .u8(ACC_BROADCASTING_VERSION)
      .str(m.displayName)
      .str(m.connectionPassword)
      .i32(m.updateIntervalMs, 'update interval')
      .str(m.commandPassword)
      .done();
  if (m.type === 'UNREGISTER_COMMAND_APPLICATION') return w.done();
  return w.i32(m.connectionId).done();
}

class Truncated {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {}
}

class Reader {
  offset = 0;
  constructor(private readonly b: Buffer) {}
  get left() {
    return this.b.length - this.offset;
  }
  private need(n: number, what: string) {
    if (this.left < n)
      throw new Truncated(this.offset, `${what}: ${n} bytes needed, ${this.left} left`);
  }
  u8(what = 'byte') {
    this.need(1, what);
    return this.b.readUInt8(this.offset++);
  }
  u16(what = 'u16') {
    this.need(2, what);
    const v = this.b.readUInt16LE(this.offset);
    this.offset += 2;
    return v;
  }
  i32(what = 'i32') {
    this.need(4, what);
    const v = this.b.readInt32LE(this.offset);
    this.offset += 4;
    return v;
  }
  f32(what = 'f32') {
    this.need(4, what);
    const v = this.b.readFloatLE(this.offset);
    this.offset += 4;
    return v;
  }
  bool(what = 'flag') {
    return this.u8(what) !== 0;
  }
  str(what = 'string') {
    const n = this.u16(`${what} length`);
    this.need(n, what);
    const s = this.b.toString('utf8', this.offset, this.offset + n);
    this.offset += n;
    return s;
  }
  lap(): AccLapInfo {
    const lapTimeMs = this.i32('lap time');
    const carIndex = this.u16('lap car index');
    const driverIndex = this.u16('lap driver index');
    const splits: number[] = [];
    for (let n = this.u8('split count'); n > 0; n--) splits.push(this.i32('split'));
    return {
      lapTimeMs,
      carIndex,
      driverIndex,
      splits,
      isInvalid: this.bool(),
      isValidForBest: this.bool(),
      isOutlap: this.bool(),
      isInlap: this.bool(),
    };
  }
}

function readInbound(id: number, r: Reader): AccInbound | null {
  switch (id) {
    case AccInboundId.REGISTRATION_RESULT:
      return {
        type: 'REGISTRATION_RESULT',
        connectionId: r.i32(),
        success: r.bool(),
        readOnly: r.u8() === 0,
        errorMessage: r.str(),
      };
    case AccInboundId.REALTIME_UPDATE: {
      const head = {
        eventIndex: r.u16(),
        sessionIndex: r.u16(),
        sessionType: r.u8(),
        phase: r.u8(),
        sessionTimeMs: r.f32(),
        sessionEndTimeMs: r.f32(),
        focusedCarIndex: r.i32(),
        activeCameraSet: r.str(),
        activeCamera: r.str(),
        currentHudPage: r.str(),
      };
      const replay = r.bool() ? { sessionTimeMs: r.f32(), remainingTimeMs: r.f32() } : null;
      return {
        type: 'REALTIME_UPDATE',
        ...head,
        replay,
        timeOfDaySeconds: r.f32(),
        ambientTemp: r.u8(),
        trackTemp: r.u8(),
        clouds: r.u8(),
        rainLevel: r.u8(),
        wetness: r.u8(),
        bestSessionLap: r.lap(),
      };
    }
    case AccInboundId.REALTIME_CAR_UPDATE:
      return {
        type: 'REALTIME_CAR_UPDATE',
        carIndex: r.u16(),
        driverIndex: r.u16(),
        driverCount: r.u8(),
        gear: r.u8() - 2,
        worldPosX: r.f32(),
        worldPosY: r.f32(),
        yaw: r.f32(),
        carLocation: r.u8(),
        kmh: r.u16(),
        position: r.u16(),
        cupPosition: r.u16(),
        trackPosition: r.u16(),
        splinePosition: r.f32(),
        laps: r.u16(),
        deltaMs: r.i32(),
        bestSessionLap: r.lap(),
        lastLap: r.lap(),
        currentLap: r.lap(),
      };
    case AccInboundId.ENTRY_LIST: {
      const connectionId = r.i32();
      const carIndexes: number[] = [];
      for (let n = r.u16('car count'); n > 0; n--) carIndexes.push(r.u16('car index'));
      return { type: 'ENTRY_LIST', connectionId, carIndexes };
    }
    case AccInboundId.TRACK_DATA: {
      const connectionId = r.i32();
      const trackName = r.str('track name');
      const trackId = r.i32();
      const trackMeters = r.i32();
      const cameraSets: { name: string; cameras: string[] }[] = [];
      for (let n = r.u8('camera set count'); n > 0; n--) {
        const name = r.str('camera set');
        const cameras: string[] = [];
        for (let c = r.u8('camera count'); c > 0; c--) cameras.push(r.str('camera'));
        cameraSets.push({ name, cameras });
      }
      const hudPages: string[] = [];
      for (let n = r.u8('HUD page count'); n > 0; n--) hudPages.push(r.str('HUD page'));
      return {
        type: 'TRACK_DATA',
        connectionId,
        trackName,
        trackId,
        trackMeters,
        cameraSets,
        hudPages,
      };
    }
    case AccInboundId.ENTRY_LIST_CAR: {
      const head = {
        carIndex: r.u16(),
        carModelType: r.u8(),
        teamName: r.str('team name'),
        raceNumber: r.i32(),
        cupCategory: r.u8(),
        currentDriverIndex: r.u8(),
        nationality: r.u16(),
      };
      const drivers: AccDriverInfo[] = [];
      for (let n = r.u8('driver count'); n > 0; n--)
        drivers.push({
          firstName: r.str('first name'),
          lastName: r.str('last name'),
          shortName: r.str('short name'),
          category: r.u8(),
          nationality: r.u16(),
        });
      return { type: 'ENTRY_LIST_CAR', ...head, drivers };
    }
    case AccInboundId.BROADCASTING_EVENT:
      return {
        type: 'BROADCASTING_EVENT',
        eventType: r.u8(),
        message: r.str('message'),
        timeMs: r.i32(),
        carIndex: r.i32(),
      };
    default:
      return null;
  }
}

function readOutbound(id: number, r: Reader): AccOutbound | null {
  switch (id) {
    case AccOutboundId.REGISTER_COMMAND_APPLICATION: {
      const version = r.u8('protocol version');
      if (version !== ACC_BROADCASTING_VERSION) throw new BadVersion(version);
      return {
        type: 'REGISTER_COMMAND_APPLICATION',
        displayName: r.str('display name'),
        connectionPassword: r.str('connection password'),
        updateIntervalMs: r.i32(),
        commandPassword: r.str('command password'),
      };
    }
    case AccOutboundId.UNREGISTER_COMMAND_APPLICATION:
      // The SDK sends the type byte alone; some public clients append their connection id.
      // Both mean the same: the id is read past and not kept.
      if (r.left === 4) r.i32();
      return { type: 'UNREGISTER_COMMAND_APPLICATION' };
    case AccOutboundId.REQUEST_ENTRY_LIST:
      return { type: 'REQUEST_ENTRY_LIST', connectionId: r.i32() };
    case AccOutboundId.REQUEST_TRACK_DATA:
      return { type: 'REQUEST_TRACK_DATA', connectionId: r.i32() };
    default:
      return null;
  }
}

class BadVersion {
  constructor(readonly version: number) {}
}

function decode<T>(
  datagram: Uint8Array,
  read: (id: number, r: Reader) => T | null,
): AccDecodeResult<T> {
  const b = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  const fail = (
    code: AccDecodeErrorCode,
    messageId: number | null,
    offset: number,
    detail: string,
  ) => ({ ok: false, error: { code, messageId, offset, detail } }) as const;
  if (b.length === 0) return fail('EMPTY', null, 0, 'empty datagram');
  const r = new Reader(b);
  const id = r.u8();
  try {
    const message = read(id, r);
    if (message === null) return fail('UNKNOWN_MESSAGE', id, 0, `unknown message type ${id}`);
    if (r.left > 0)
      return fail('TRAILING_BYTES', id, r.offset, `${r.left} bytes after the message`);
    return { ok: true, message };
  } catch (e) {
    if (e instanceof Truncated) return fail('TRUNCATED', id, e.offset, e.detail);
    if (e instanceof BadVersion)
      return fail(
        'BAD_VERSION',
        id,
        1,
        `protocol version ${e.version}, ${ACC_BROADCASTING_VERSION} expected`,
      );
    throw e;
  }
}

/** A datagram from the game (what Paddock receives). */
export const decodeAccInbound = (d: Uint8Array) => decode(d, readInbound);
/** A datagram from a client (what the fake server receives). */
export const decodeAccOutbound = (d: Uint8Array) => decode(d, readOutbound);

/** "1:36.745" / "01:36.745" / "96.745" → ms; null when it is not a lap time. */
export function parseAccLapText(text: string): number | null {
  const m = /^(?:(\d+):)?(\d{1,2})\.(\d{3})$/.exec(text.trim());
  if (!m) return null;
  return (Number(m[1] ?? 0) * 60 + Number(m[2])) * 1000 + Number(m[3]);
}

/** An empty lap (no time), as the game sends before a car has one. */
export function noLap(carIndex = 0): AccLapInfo {
  return {
    lapTimeMs: ACC_NO_TIME,
    carIndex,
    driverIndex: 0,
    splits: [],
    isInvalid: false,
    isValidForBest: true,
    isOutlap: false,
    isInlap: false,
  };
}
