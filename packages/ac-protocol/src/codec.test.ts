import { describe, expect, it } from 'vitest';
import {
  AcEncodeError,
  decodeCommand,
  decodeMessage,
  decodeServerMessage,
  encodeMessage,
  type AcMessage,
} from './codec';

// Byte helpers for writing datagrams out by hand from the protocol description.
// They know nothing about messages: a narrow string is [byte length, ...ASCII], a wide string
// is [character count, then each character as 4 bytes little-endian].
const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const i32 = (n: number) => u32(n >>> 0);
const f32 = (x: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(x);
  return [...b];
};
const narrow = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
const wide = (s: string) => [s.length, ...[...s].flatMap((c) => [c.charCodeAt(0), 0, 0, 0])];

function decoded(bytes: number[]) {
  const result = decodeMessage(Buffer.from(bytes));
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.detail}`);
  return result.message;
}

const v = (x: number, y: number, z: number) => ({ x, y, z });

// One example of every message; floats are chosen to be exact in 32 bits.
const examples: AcMessage[] = [
  {
    type: 'NEW_SESSION',
    version: 4,
    sessionIndex: 2,
    currentSessionIndex: 2,
    sessionCount: 3,
    serverName: 'Paddock Ünïcode 🏁',
    track: 'monza',
    trackConfig: '',
    name: 'Race',
    sessionType: 3,
    timeMinutes: 0,
    laps: 10,
    waitTimeSeconds: 60,
    ambientTemp: 26,
    roadTemp: 32,
    weatherGraphics: '3_clear',
    elapsedMs: -5000,
  },
  {
    type: 'SESSION_INFO',
    version: 4,
    sessionIndex: 0,
    currentSessionIndex: 1,
    sessionCount: 2,
    serverName: 'Paddock',
    track: 'ks_silverstone',
    trackConfig: 'gp',
    name: 'Practice',
    sessionType: 1,
    timeMinutes: 25,
    laps: 0,
    waitTimeSeconds: 0,
    ambientTemp: 18,
    roadTemp: 24,
    weatherGraphics: '1_heavy_fog',
    elapsedMs: 123456,
  },
  {
    type: 'NEW_CONNECTION',
    driverName: 'Zoë',
    driverGuid: '76561198078712985',
    carId: 3,
    carModel: 'lotus_exos_125',
    carSkin: 'carbon',
  },
  {
    type: 'CONNECTION_CLOSED',
    driverName: 'Lwi',
    driverGuid: '76561198078712985',
    carId: 0,
    carModel: 'lotus_exos_125',
    carSkin: '0_Lotus',
  },
  {
    type: 'CAR_UPDATE',
    carId: 7,
    position: v(-132.5, -11.25, 849.75),
    velocity: v(10, 0.5, -3),
    gear: 4,
    engineRpm: 7250,
    normalizedSplinePosition: 0.625,
  },
  {
    type: 'CAR_INFO',
    carId: 1,
    isConnected: true,
    carModel: 'ks_mazda_mx5_cup',
    carSkin: '00_official',
    driverName: 'Ana',
    driverTeam: 'Paddock',
    driverGuid: '76561198000000001',
  },
  { type: 'END_SESSION', resultsFile: 'results/2026_11_23_12_00_RACE.json' },
  { type: 'VERSION', version: 4 },
  { type: 'CHAT', carId: 2, message: 'gg' },
  { type: 'CLIENT_LOADED', carId: 5 },
  { type: 'ERROR', message: 'ERROR: ACSP_KICK_USER index 230 out of bound' },
  {
    type: 'LAP_COMPLETED',
    carId: 9,
    lapTimeMs: 104357,
    cuts: 2,
    leaderboard: [
      { carId: 9, timeMs: 104357, laps: 1, completed: false },
      { carId: 10, timeMs: 0, laps: 0, completed: false },
      { carId: 7, timeMs: 972763, laps: 10, completed: true },
    ],
    gripLevel: 0.96875,
  },
  {
    type: 'CLIENT_EVENT',
    event: 'COLLISION_WITH_CAR',
    carId: 15,
    otherCarId: 12,
    impactSpeed: 7.375,
    worldPosition: v(-172.375, -6.75, 100.0625),
    relativePosition: v(-0.4375, -0.0625, -2.03125),
  },
  {
    type: 'CLIENT_EVENT',
    event: 'COLLISION_WITH_ENV',
    carId: 13,
    impactSpeed: 27.3125,
    worldPosition: v(-132.5, -11.25, 849.25),
    relativePosition: v(-0.875, 0, 2.75),
  },
  { type: 'REALTIMEPOS_INTERVAL', intervalMs: 250 },
  { type: 'GET_CAR_INFO', carId: 2 },
  { type: 'SEND_CHAT', carId: 0, message: 'Box this lap' },
  { type: 'BROADCAST_CHAT', message: 'Race starts in 1 minute' },
  { type: 'GET_SESSION_INFO', sessionIndex: -1 },
  {
    type: 'SET_SESSION_INFO',
    sessionIndex: 1,
    name: 'Qualify',
    sessionType: 2,
    laps: 0,
    time: 10,
    waitTimeSeconds: 30,
  },
  { type: 'KICK_USER', carId: 4 },
  { type: 'NEXT_SESSION' },
  { type: 'RESTART_SESSION' },
  { type: 'ADMIN_COMMAND', command: '/ballast 3 20' },
];

describe('codec round trips', () => {
  it('has an example of every message type', () => {
    const types = new Set(examples.map((m) => m.type));
    expect(types.size).toBe(23);
  });

  for (const message of examples) {
    const label = message.type === 'CLIENT_EVENT' ? `CLIENT_EVENT ${message.event}` : message.type;
    it(label, () => {
      const bytes = encodeMessage(message);
      const result = decodeMessage(bytes);
      expect(result).toEqual({ ok: true, message });
    });
  }
});

describe('decoding hand-written datagrams', () => {
  it('NEW_SESSION: version, indexes, wide server name, narrow track/config/name, u16 time/laps/wait, temps, narrow weather, i32 elapsed', () => {
    const bytes = [
      50,
      4, // protocol version
      2, // session index
      1, // current session index
      3, // session count
      ...wide('AC'),
      ...narrow('monza'),
      ...narrow(''),
      ...narrow('Race'),
      3, // RACE
      ...u16(0),
      ...u16(10),
      ...u16(60),
      26,
      32,
      ...narrow('3_clear'),
      ...i32(-1500),
    ];
    expect(decoded(bytes)).toEqual({
      type: 'NEW_SESSION',
      version: 4,
      sessionIndex: 2,
      currentSessionIndex: 1,
      sessionCount: 3,
      serverName: 'AC',
      track: 'monza',
      trackConfig: '',
      name: 'Race',
      sessionType: 3,
      timeMinutes: 0,
      laps: 10,
      waitTimeSeconds: 60,
      ambientTemp: 26,
      roadTemp: 32,
      weatherGraphics: '3_clear',
      elapsedMs: -1500,
    });
  });

  it('SESSION_INFO has the NEW_SESSION layout under id 59', () => {
    const body = [4, 0, 0, 1, ...wide(''), ...narrow('imola'), ...narrow('')];
    const rest = [...narrow('P'), 1, ...u16(25), ...u16(0), ...u16(0), 20, 25, ...narrow('')];
    const m = decoded([59, ...body, ...rest, ...i32(0)]);
    expect(m).toMatchObject({ type: 'SESSION_INFO', track: 'imola', timeMinutes: 25 });
  });

  it('NEW_CONNECTION: wide name and guid, car id, narrow model and skin', () => {
    const bytes = [
      51,
      ...wide('Lwi'),
      ...wide('76561198078712985'),
      0,
      ...narrow('lotus_exos_125'),
      ...narrow('carbon'),
    ];
    expect(decoded(bytes)).toEqual({
      type: 'NEW_CONNECTION',
      driverName: 'Lwi',
      driverGuid: '76561198078712985',
      carId: 0,
      carModel: 'lotus_exos_125',
      carSkin: 'carbon',
    });
  });

  it('CONNECTION_CLOSED has the NEW_CONNECTION layout under id 52', () => {
    const bytes = [52, ...wide('A'), ...wide('1'), 4, ...narrow('m'), ...narrow('s')];
    expect(decoded(bytes)).toMatchObject({ type: 'CONNECTION_CLOSED', carId: 4, carModel: 'm' });
  });

  it('CAR_UPDATE: car id, position and velocity (3 floats each), gear, u16 rpm, float spline', () => {
    const bytes = [
      53,
      7,
      ...f32(1.5),
      ...f32(-2),
      ...f32(300.25),
      ...f32(40),
      ...f32(0),
      ...f32(-0.5),
      3,
      ...u16(6500),
      ...f32(0.75),
    ];
    expect(decoded(bytes)).toEqual({
      type: 'CAR_UPDATE',
      carId: 7,
      position: v(1.5, -2, 300.25),
      velocity: v(40, 0, -0.5),
      gear: 3,
      engineRpm: 6500,
      normalizedSplinePosition: 0.75,
    });
  });

  it('CAR_INFO: car id, connected byte, five wide strings', () => {
    const bytes = [
      54,
      2,
      1,
      ...wide('mx5'),
      ...wide('red'),
      ...wide('Ana'),
      ...wide(''),
      ...wide('7656'),
    ];
    expect(decoded(bytes)).toEqual({
      type: 'CAR_INFO',
      carId: 2,
      isConnected: true,
      carModel: 'mx5',
      carSkin: 'red',
      driverName: 'Ana',
      driverTeam: '',
      driverGuid: '7656',
    });
  });

  it('END_SESSION: the results file name as a wide string', () => {
    expect(decoded([55, ...wide('results/x.json')])).toEqual({
      type: 'END_SESSION',
      resultsFile: 'results/x.json',
    });
  });

  it('VERSION, CLIENT_LOADED: one byte', () => {
    expect(decoded([56, 4])).toEqual({ type: 'VERSION', version: 4 });
    expect(decoded([58, 11])).toEqual({ type: 'CLIENT_LOADED', carId: 11 });
  });

  it('CHAT: car id then a wide message; ERROR: a wide message', () => {
    expect(decoded([57, 3, ...wide('hi')])).toEqual({ type: 'CHAT', carId: 3, message: 'hi' });
    expect(decoded([60, ...wide('bad')])).toEqual({ type: 'ERROR', message: 'bad' });
  });

  it('a wide string outside ASCII: each character is a UTF-32LE code point', () => {
    // 'é' U+00E9 and '🏁' U+1F3C1 (one character, one 4-byte unit, not a surrogate pair)
    const bytes = [57, 0, 2, 0xe9, 0, 0, 0, 0xc1, 0xf3, 0x01, 0];
    expect(decoded(bytes)).toEqual({ type: 'CHAT', carId: 0, message: 'é🏁' });
  });

  it('LAP_COMPLETED: car, u32 lap time, cuts, leaderboard count and entries (car, u32 time, u16 laps, completed), float grip', () => {
    const bytes = [
      73,
      9,
      ...u32(104357),
      1,
      2, // two leaderboard entries
      9,
      ...u32(104357),
      ...u16(1),
      0,
      10,
      ...u32(0),
      ...u16(0),
      0,
      ...f32(1),
    ];
    expect(decoded(bytes)).toEqual({
      type: 'LAP_COMPLETED',
      carId: 9,
      lapTimeMs: 104357,
      cuts: 1,
      leaderboard: [
        { carId: 9, timeMs: 104357, laps: 1, completed: false },
        { carId: 10, timeMs: 0, laps: 0, completed: false },
      ],
      gripLevel: 1,
    });
  });

  it('CLIENT_EVENT with a car (10) carries the other car id; with the environment (11) it does not', () => {
    const tail = [...f32(7.5), ...f32(1), ...f32(2), ...f32(3), ...f32(-1), ...f32(0), ...f32(0.5)];
    expect(decoded([130, 10, 15, 12, ...tail])).toEqual({
      type: 'CLIENT_EVENT',
      event: 'COLLISION_WITH_CAR',
      carId: 15,
      otherCarId: 12,
      impactSpeed: 7.5,
      worldPosition: v(1, 2, 3),
      relativePosition: v(-1, 0, 0.5),
    });
    expect(decoded([130, 11, 13, ...tail])).toEqual({
      type: 'CLIENT_EVENT',
      event: 'COLLISION_WITH_ENV',
      carId: 13,
      impactSpeed: 7.5,
      worldPosition: v(1, 2, 3),
      relativePosition: v(-1, 0, 0.5),
    });
  });

  it('commands: REALTIMEPOS_INTERVAL u16, GET_CAR_INFO / KICK_USER u8, GET_SESSION_INFO i16', () => {
    expect(decoded([200, ...u16(1000)])).toEqual({
      type: 'REALTIMEPOS_INTERVAL',
      intervalMs: 1000,
    });
    expect(decoded([201, 2])).toEqual({ type: 'GET_CAR_INFO', carId: 2 });
    expect(decoded([206, 230])).toEqual({ type: 'KICK_USER', carId: 230 });
    expect(decoded([204, 0xff, 0xff])).toEqual({ type: 'GET_SESSION_INFO', sessionIndex: -1 });
    expect(decoded([204, 2, 0])).toEqual({ type: 'GET_SESSION_INFO', sessionIndex: 2 });
  });

  it('commands: SEND_CHAT car + wide, BROADCAST_CHAT / ADMIN_COMMAND wide, NEXT / RESTART empty', () => {
    expect(decoded([202, 0, ...wide('CIAO')])).toEqual({
      type: 'SEND_CHAT',
      carId: 0,
      message: 'CIAO',
    });
    expect(decoded([203, ...wide('all')])).toEqual({ type: 'BROADCAST_CHAT', message: 'all' });
    expect(decoded([209, ...wide('/next_session')])).toEqual({
      type: 'ADMIN_COMMAND',
      command: '/next_session',
    });
    expect(decoded([207])).toEqual({ type: 'NEXT_SESSION' });
    expect(decoded([208])).toEqual({ type: 'RESTART_SESSION' });
  });

  it('SET_SESSION_INFO: index, wide name, type, u32 laps, u32 time, u32 wait time', () => {
    const bytes = [205, 1, ...wide('Q'), 2, ...u32(0), ...u32(15), ...u32(20)];
    expect(decoded(bytes)).toEqual({
      type: 'SET_SESSION_INFO',
      sessionIndex: 1,
      name: 'Q',
      sessionType: 2,
      laps: 0,
      time: 15,
      waitTimeSeconds: 20,
    });
  });

  it('the encoder writes the same bytes as the hand-written layout', () => {
    const bytes = [51, ...wide('A'), ...wide('7'), 3, ...narrow('mx5'), ...narrow('red')];
    expect([
      ...encodeMessage({
        type: 'NEW_CONNECTION',
        driverName: 'A',
        driverGuid: '7',
        carId: 3,
        carModel: 'mx5',
        carSkin: 'red',
      }),
    ]).toEqual(bytes);
    expect([...encodeMessage({ type: 'GET_SESSION_INFO', sessionIndex: -1 })]).toEqual([
      204, 0xff, 0xff,
    ]);
  });
});

describe('bad datagrams give a typed error', () => {
  it('empty', () => {
    expect(decodeMessage(Buffer.alloc(0))).toMatchObject({ ok: false, error: { code: 'EMPTY' } });
  });

  it('unknown message id and unknown client event', () => {
    expect(decodeMessage(Buffer.from([99, 1, 2]))).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_MESSAGE', messageId: 99 },
    });
    expect(decodeMessage(Buffer.from([130, 12, 1]))).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CLIENT_EVENT', messageId: 130 },
    });
  });

  it('every prefix of every example is TRUNCATED, never a throw', () => {
    for (const message of examples) {
      const bytes = encodeMessage(message);
      for (let n = 1; n < bytes.length; n++) {
        const result = decodeMessage(bytes.subarray(0, n));
        expect(result.ok, `${message.type} cut at ${n}`).toBe(false);
        if (!result.ok) expect(result.error.code).toBe('TRUNCATED');
      }
    }
  });

  it('a string length that runs past the end is TRUNCATED', () => {
    // END_SESSION claiming 200 wide characters, carrying one.
    const result = decodeMessage(Buffer.from([55, 200, 65, 0, 0, 0]));
    expect(result).toMatchObject({ ok: false, error: { code: 'TRUNCATED', offset: 2 } });
  });

  it('bytes after a complete message are TRAILING_BYTES', () => {
    expect(decodeMessage(Buffer.from([56, 4, 0]))).toMatchObject({
      ok: false,
      error: { code: 'TRAILING_BYTES', messageId: 56 },
    });
  });

  it('random garbage never throws', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const ids = [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 73, 130, 200, 201, 202, 205, 209];
    for (let i = 0; i < 5000; i++) {
      const len = rand() % 64;
      const bytes = Buffer.alloc(len + 1);
      bytes[0] = ids[rand() % ids.length];
      for (let j = 1; j <= len; j++) bytes[j] = rand() & 0xff;
      expect(() => decodeMessage(bytes)).not.toThrow();
    }
  });

  it('invalid UTF-32 code points decode as U+FFFD', () => {
    const result = decodeMessage(Buffer.from([60, 1, 0x00, 0xd8, 0, 0]));
    expect(result).toEqual({ ok: true, message: { type: 'ERROR', message: '\ufffd' } });
  });

  it('a decoder for one direction refuses the other', () => {
    expect(decodeServerMessage(Buffer.from([207]))).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_MESSAGE' },
    });
    expect(decodeCommand(Buffer.from([56, 4]))).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_MESSAGE' },
    });
    expect(decodeServerMessage(Buffer.from([56, 4]))).toEqual({
      ok: true,
      message: { type: 'VERSION', version: 4 },
    });
  });

  it('encoding a value that does not fit throws AcEncodeError', () => {
    expect(() => encodeMessage({ type: 'GET_CAR_INFO', carId: 256 })).toThrow(AcEncodeError);
    expect(() => encodeMessage({ type: 'BROADCAST_CHAT', message: 'x'.repeat(256) })).toThrow(
      AcEncodeError,
    );
  });
});
