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
