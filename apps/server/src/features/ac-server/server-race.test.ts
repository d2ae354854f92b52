import { describe, expect, it } from 'vitest';
import type { RaceEvent } from '@paddock/contract/races';
import { writeServerConfig } from '@paddock/ac-protocol/server-config';
import { readServerConfig } from '@paddock/ac-protocol/fake-acserver/read-server-config';
import { FIXED_SETUP_FILE, ServerRaceError, toServerRace } from './server-race';

const entry = (calendar: number, name: string, car: number | null, skin: number | null) => ({
  id: calendar * 10,
  event: 1,
  calendar,
  calendar_name: name,
  user: null,
  car,
  skin,
  exited: false,
  initialized: false,
  launched: false,
  state: 'none' as const,
  rig_connected: false,
});

/** A 3-seat party: practice 10 min, race of 5 laps, ABS and tyre blankets, penalties on. */
const partyRace: RaceEvent = {
  id: 1,
  calendar: 11,
  party: 7,
  moved_to: null,
  track: 3,
  cars: [21, 22],
  sessions: [
    {
      id: 1,
      event: 1,
      name: 'Warm-up',
      type: 'PRACTICE',
      spawn: 'PIT',
      ordering: 0,
      duration: 10,
      duration_is_laps: false,
    },
    {
      id: 2,
      event: 1,
      name: 'Race',
      type: 'RACE',
      spawn: 'START',
      ordering: 1,
      duration: 5,
      duration_is_laps: true,
    },
  ],
  entries: [
    entry(11, 'Sim 1', 21, 31),
    entry(12, 'Sim 2', 22, null),
    entry(13, 'Sim 3', null, null),
  ],
  preset: null,
  assists: ['abs', 'tyre_blankets', 'ideal_line'],
  penalties: true,
  fixed_setup: true,
  drift_mode: false,
};

const lookups = {
  track: { key: 'ks_monza', layout: 'full' },
  cars: { 21: 'ks_mazda_mx5_cup', 22: 'lotus_exos_125' },
  skins: { 31: 'red' },
  drivers: {
    11: { name: 'Ann', guid: '76561198000000001' },
    12: { name: 'Bob', guid: '' },
  },
};

const link = {
  serverName: 'Paddock Party',
  password: 'pw',
  adminPassword: 'admin',
  ports: { tcp: 9600, udp: 9600, http: 8081 },
  plugin: { address: '127.0.0.1:12000', localPort: 11000 },
};

describe('a party event as the dedicated server’s race', () => {
  it('maps a 3-seat party race with laps: one entry per seat, car id = seat order', () => {
    const { race, seats } = toServerRace(partyRace, lookups, link);
    expect(seats).toEqual([11, 12, 13]);
    expect(race).toEqual({
      ...link,
      track: 'ks_monza',
      trackLayout: 'full',
      cars: ['ks_mazda_mx5_cup', 'lotus_exos_125'],
      sessions: {
        practice: { name: 'Warm-up', minutes: 10 },
        race: { name: 'Race', laps: 5 },
      },
      assists: {
        abs: 'factory',
        tractionControl: 'off',
        stabilityControl: false,
        autoClutch: false,
        tyreBlankets: true,
      },
      penalties: { cutPenalties: true, allowedTyresOut: 2, startRule: 'drive-through' },
      fixedSetup: FIXED_SETUP_FILE,
      entries: [
        {
          model: 'ks_mazda_mx5_cup',
          skin: 'red',
          guid: '76561198000000001',
          driverName: 'Ann',
          team: 'Sim 1',
        },
        { model: 'lotus_exos_125', skin: '', guid: '', driverName: 'Bob', team: 'Sim 2' },
        // No car chosen: the event's first; nobody booked: the seat's name.
        { model: 'ks_mazda_mx5_cup', skin: '', guid: '', driverName: 'Sim 3', team: 'Sim 3' },
      ],
      maxClients: 3,
    });
    // The files it makes are ones acServer (the strict fake) starts with.
    const files = writeServerConfig(race);
    expect(files.serverCfg).toContain('MAX_CLIENTS=3\r\n');
    expect(files.serverCfg).toMatch(/\[RACE\]\r\nNAME=Race\r\nLAPS=5\r\nTIME=0/);
    expect(files.entryList).toContain('[CAR_2]\r\nMODEL=ks_mazda_mx5_cup');
    expect(files.entryList).toContain('FIXED_SETUP=paddock.ini');
    const read = readServerConfig(files.serverCfg, files.entryList);
    expect(read.ok).toBe(true);
  });

  it('refuses what acServer cannot run, every reason at once', () => {
    const bad: RaceEvent = {
      ...partyRace,
      cars: [],
      sessions: [
        { ...partyRace.sessions[0], duration_is_laps: true },
        { ...partyRace.sessions[1] },
        { ...partyRace.sessions[1], id: 3 },
      ],
    };
    let error: unknown;
    try {
      toServerRace(bad, { ...lookups, track: null }, link);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServerRaceError);
    expect((error as ServerRaceError).problems).toEqual([
      'The event has no track.',
      'The event has no cars.',
      'A practice session on the server runs for minutes, not laps.',
      'The server runs one race session; this event has more.',
    ]);
  });

  it('turns penalties off into counted cuts and a teleport, and a hotlap into practice', () => {
    const { race } = toServerRace(
      {
        ...partyRace,
        penalties: false,
        fixed_setup: false,
        sessions: [{ ...partyRace.sessions[0], type: 'HOTLAP' }],
      },
      lookups,
      link,
    );
    expect(race.penalties).toEqual({
      cutPenalties: false,
      allowedTyresOut: 2,
      startRule: 'teleport',
    });
    expect(race.sessions).toEqual({ practice: { name: 'Warm-up', minutes: 10 } });
    expect(race.fixedSetup).toBeUndefined();
  });
});
