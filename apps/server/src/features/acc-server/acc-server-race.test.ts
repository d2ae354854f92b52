import { describe, expect, it } from 'vitest';
import type { RaceEvent } from '@paddock/contract/races';
import { writeAccServerConfig } from '@paddock/ac-protocol/acc/server-config';
import { ServerRaceError } from '../ac-server/server-race';
import { accCarModel, toAccServerRace } from './acc-server-race';

const entry = (calendar: number, name: string, car: number | null) => ({
  id: calendar * 10,
  event: 1,
  calendar,
  calendar_name: name,
  user: null,
  car,
  skin: null,
  exited: false,
  initialized: false,
  launched: false,
  state: 'none' as const,
  rig_connected: false,
});
const session = (
  type: 'PRACTICE' | 'QUALIFYING' | 'RACE' | 'HOTLAP',
  duration: number,
  laps = false,
) => ({
  id: 1,
  event: 1,
  name: type,
  type,
  spawn: 'PIT' as const,
  ordering: 0,
  duration,
  duration_is_laps: laps,
});
const event: RaceEvent = {
  id: 1,
  calendar: 11,
  party: 7,
  moved_to: null,
  track: 3,
  cars: [21, 22],
  sessions: [session('HOTLAP', 10), session('QUALIFYING', 15), session('RACE', 25)],
  entries: [entry(11, 'Sim 1', 22), entry(12, 'Sim 2', null)],
  preset: null,
  assists: ['abs', 'stability_control'],
  penalties: true,
  fixed_setup: false,
  drift_mode: false,
};
const lookups = {
  track: { key: 'spa', layout: '' },
  cars: { 21: 'ferrari_488_gt3_evo', 22: 'acc_model_31' },
  skins: {},
  drivers: { 11: { name: 'Ana Lima', guid: '76561197971070302' } },
};
const link = {
  serverName: 'Paddock',
  password: '',
  adminPassword: 'a',
  ports: { tcp: 9232, udp: 9231 },
};

describe('a party event as an ACC server race', () => {
  it('numbers the seats, forces their cars and names the known drivers', () => {
    const { race, seats } = toAccServerRace(event, lookups, link);
    expect(seats).toEqual([11, 12]);
    expect(race.entries).toEqual([
      {
        carModel: 31,
        raceNumber: 1,
        steamId: '76561197971070302',
        firstName: 'Ana',
        lastName: 'Lima',
        shortName: 'ANA',
      },
      {
        carModel: 24,
        raceNumber: 2,
        steamId: '',
        firstName: 'Sim',
        lastName: '2',
        shortName: 'SIM',
      },
    ]);
    expect(race.sessions.map((s) => [s.type, s.minutes])).toEqual([
      ['P', 10],
      ['Q', 15],
      ['R', 25],
    ]);
    expect(race.assists).toEqual({ stabilityControl: true, autoClutch: false, idealLine: false });
    expect(() => writeAccServerConfig(race)).not.toThrow();
    expect(accCarModel('mercedes_amg_gt3_evo')).toBe(25);
    expect(accCarModel('ks_mazda_mx5_cup')).toBeNull();
  });

  it('ties each seat’s race number to its own Steam account, and forces the list when every seat has one', () => {
    // The seat's account wins over the driver's: on a venue rig the game plays on the PC's.
    const seatSteamIds = { 11: '76561198000000011', 12: '76561198000000012' };
    const { race } = toAccServerRace(event, { ...lookups, seatSteamIds }, link);
    expect(race.entries.map((e) => [e.raceNumber, e.steamId])).toEqual([
      [1, '76561198000000011'],
      [2, '76561198000000012'],
    ]);
    const list = JSON.parse(writeAccServerConfig(race)['entrylist.json']);
    // The handbook's entry list keys: playerID "S" + SteamID64, forceEntryList 1.
    expect(
      list.entries.map((e: { drivers: { playerID: string }[] }) => e.drivers[0].playerID),
    ).toEqual(['S76561198000000011', 'S76561198000000012']);
    expect(list.forceEntryList).toBe(1);
    // One seat without: the list is not forced (that seat takes whoever joins).
    const partly = toAccServerRace(
      event,
      { ...lookups, seatSteamIds: { 12: '76561198000000012' } },
      link,
    );
    expect(partly.race.entries.map((e) => e.steamId)).toEqual([
      '76561197971070302',
      '76561198000000012',
    ]);
    const some = toAccServerRace(
      event,
      { ...lookups, drivers: {}, seatSteamIds: { 12: '76561198000000012' } },
      link,
    );
    expect(JSON.parse(writeAccServerConfig(some.race)['entrylist.json']).forceEntryList).toBe(0);
  });

  it('lists every reason it cannot run: laps, an AC car', () => {
    try {
      toAccServerRace(
        { ...event, sessions: [session('RACE', 10, true)] },
        { ...lookups, cars: { 21: 'ks_mazda_mx5_cup', 22: 'acc_model_31' } },
        link,
      );
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ServerRaceError);
      expect((e as ServerRaceError).problems).toEqual([
        'ACC runs sessions for minutes, not laps: "RACE".',
        'ks_mazda_mx5_cup is not an ACC car.',
      ]);
    }
  });
});
