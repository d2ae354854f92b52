import { describe, expect, it } from 'vitest';
import {
  AccEventType,
  AccSessionPhase,
  AccSessionType,
  decodeAccInbound,
  decodeAccOutbound,
  encodeAccInbound,
  encodeAccOutbound,
  parseAccLapText,
  type AccInbound,
} from './broadcasting';

// Datagrams captured and logged as hex by a third-party client (prule/acc-client-example,
// README "Simulator output"), decoded there by prule/acc-messages; read by hand against Kunos'
// SDK layouts. Our decoder and encoder must agree with them byte for byte.
const hex = (s: string) => Buffer.from(s, 'hex');
const CAPTURE = {
  register: '010407004578616d706c650300617364e80300000300617364',
  registrationResult: '010500000001010000',
  realtimeUpdate:
    '02000000000a0504988b49f00bae480d00000008004472697661626c650700436f636b706974090042617369632048554400ba9657471e26000000d96b01000500000003d15b0000bc9f00004b70000000010000',
  realtimeCarUpdate:
    '030000000001031948d6c2675fb34317642240017800010001000000f623f33d0c00fbffffffff6d01000000000003fe5b0000c8a0000007710000000100004070010000000000035f5c000054a100008d7200000001000032280000000000000000010000',
  entryList:
    '0412000000190000000400020005000100070006000a00080009000c000f0010000e0003001300180012000b0014001700150016000d001100',
  entryListCar:
    '060000010c00426c61636b2046616c636f6e04000000000002000104004c756361050053746f6c7a030053544f010200',
  lapCompleted: '0705090030313a33362e373435f360120006000000',
  trackDataHead: '05120000000d005265642042756c6c2052696e671a000000de100000',
};

function inbound(h: string): AccInbound {
  const r = decodeAccInbound(hex(h));
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.message;
}

describe('ACC broadcasting codec against a public capture', () => {
  it('reads and writes the registration request', () => {
    const r = decodeAccOutbound(hex(CAPTURE.register));
    expect(r).toEqual({
      ok: true,
      message: {
        type: 'REGISTER_COMMAND_APPLICATION',
        displayName: 'Example',
        connectionPassword: 'asd',
        updateIntervalMs: 1000,
        commandPassword: 'asd',
      },
    });
    if (r.ok) expect(encodeAccOutbound(r.message).toString('hex')).toBe(CAPTURE.register);
  });

  it('writes the unregistration as the SDK does, one byte, and reads it (and the 5-byte form)', () => {
    // Kunos' ksBroadcastingNetwork Disconnect(): the type byte alone, no connection id.
    const bytes = encodeAccOutbound({ type: 'UNREGISTER_COMMAND_APPLICATION' });
    expect(bytes.toString('hex')).toBe('09');
    expect(decodeAccOutbound(bytes)).toEqual({
      ok: true,
      message: { type: 'UNREGISTER_COMMAND_APPLICATION' },
    });
    // Some public clients append their connection id: the same message.
    expect(decodeAccOutbound(hex('0905000000'))).toEqual({
      ok: true,
      message: { type: 'UNREGISTER_COMMAND_APPLICATION' },
    });
    expect(decodeAccOutbound(hex('090500'))).toMatchObject({
      ok: false,
      error: { code: 'TRAILING_BYTES' },
    });
  });

  it('reads the registration result (the SDK: read-only when the byte is 0)', () => {
    const m = inbound(CAPTURE.registrationResult);
    expect(m).toEqual({
      type: 'REGISTRATION_RESULT',
      connectionId: 5,
      success: true,
      readOnly: false,
      errorMessage: '',
    });
    expect(encodeAccInbound(m).toString('hex')).toBe(CAPTURE.registrationResult);
  });

  it('reads a realtime update with the session best lap', () => {
    const m = inbound(CAPTURE.realtimeUpdate);
    if (m.type !== 'REALTIME_UPDATE') throw new Error(m.type);
    expect(m.sessionType).toBe(AccSessionType.RACE);
    expect(m.phase).toBe(AccSessionPhase.SESSION);
    expect(m.sessionTimeMs).toBe(1143552.5);
    expect(m.focusedCarIndex).toBe(13);
    expect([m.activeCameraSet, m.activeCamera, m.currentHudPage]).toEqual([
      'Drivable',
      'Cockpit',
      'Basic HUD',
    ]);
    expect(m.replay).toBeNull();
    expect([m.ambientTemp, m.trackTemp]).toEqual([30, 38]);
    expect(m.bestSessionLap).toMatchObject({
      lapTimeMs: 93145,
      carIndex: 5,
      splits: [23505, 40892, 28747],
      isInvalid: false,
      isValidForBest: true,
    });
    expect(encodeAccInbound(m).toString('hex')).toBe(CAPTURE.realtimeUpdate);
  });

  it('reads a realtime car update: position, laps, last lap and its validity', () => {
    const m = inbound(CAPTURE.realtimeCarUpdate);
    if (m.type !== 'REALTIME_CAR_UPDATE') throw new Error(m.type);
    expect(m).toMatchObject({ carIndex: 0, driverCount: 1, gear: 1, carLocation: 1, kmh: 120 });
    expect([m.position, m.cupPosition, m.trackPosition, m.laps, m.deltaMs]).toEqual([
      1, 1, 0, 12, -5,
    ]);
    expect(m.lastLap).toMatchObject({
      lapTimeMs: 94272,
      splits: [23647, 41300, 29325],
      isInvalid: false,
    });
    expect(m.currentLap).toMatchObject({ lapTimeMs: 10290, splits: [] });
    expect(encodeAccInbound(m).toString('hex')).toBe(CAPTURE.realtimeCarUpdate);
  });

  it('reads the entry list and an entry list car', () => {
    const list = inbound(CAPTURE.entryList);
    expect(list).toMatchObject({ type: 'ENTRY_LIST', connectionId: 18 });
    if (list.type === 'ENTRY_LIST') expect(list.carIndexes.slice(0, 5)).toEqual([0, 4, 2, 5, 1]);
    expect(encodeAccInbound(list).toString('hex')).toBe(CAPTURE.entryList);

    const car = inbound(CAPTURE.entryListCar);
    expect(car).toEqual({
      type: 'ENTRY_LIST_CAR',
      carIndex: 0,
      carModelType: 1,
      teamName: 'Black Falcon',
      raceNumber: 4,
      cupCategory: 0,
      currentDriverIndex: 0,
      nationality: 2,
      drivers: [
        { firstName: 'Luca', lastName: 'Stolz', shortName: 'STO', category: 1, nationality: 2 },
      ],
    });
    expect(encodeAccInbound(car).toString('hex')).toBe(CAPTURE.entryListCar);
  });

  it('reads a lap completed event', () => {
    const m = inbound(CAPTURE.lapCompleted);
    expect(m).toEqual({
      type: 'BROADCASTING_EVENT',
      eventType: AccEventType.LAP_COMPLETED,
      message: '01:36.745',
      timeMs: 1204467,
      carIndex: 6,
    });
    expect(parseAccLapText('01:36.745')).toBe(96_745);
    expect(parseAccLapText('no lap')).toBeNull();
    expect(encodeAccInbound(m).toString('hex')).toBe(CAPTURE.lapCompleted);
  });

  it('round-trips track data with camera sets and HUD pages', () => {
    const m: AccInbound = {
      type: 'TRACK_DATA',
      connectionId: 18,
      trackName: 'Red Bull Ring',
      trackId: 26,
      trackMeters: 4318,
      cameraSets: [{ name: 'Drivable', cameras: ['Chase', 'Cockpit'] }],
      hudPages: ['Blank', 'Basic HUD'],
    };
    const bytes = encodeAccInbound(m);
    // The head (id, connection, name, id, metres) is the capture's.
    expect(bytes.subarray(0, CAPTURE.trackDataHead.length / 2).toString('hex')).toBe(
      CAPTURE.trackDataHead,
    );
    expect(decodeAccInbound(bytes)).toEqual({ ok: true, message: m });
  });
});

describe('ACC broadcasting codec on bad input', () => {
  it('never throws and never reads past the buffer', () => {
    const full = hex(CAPTURE.realtimeCarUpdate);
    for (let n = 0; n < full.length; n++) {
      const r = decodeAccInbound(full.subarray(0, n));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe(n === 0 ? 'EMPTY' : 'TRUNCATED');
    }
    const longer = Buffer.concat([full, Buffer.from([0])]);
    expect(decodeAccInbound(longer)).toMatchObject({
      ok: false,
      error: { code: 'TRAILING_BYTES' },
    });
    expect(decodeAccInbound(Buffer.from([99]))).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_MESSAGE', messageId: 99 },
    });
    const v3 = hex(CAPTURE.register);
    v3[1] = 3;
    expect(decodeAccOutbound(v3)).toMatchObject({ ok: false, error: { code: 'BAD_VERSION' } });
  });
});
