import { describe, expect, it } from 'vitest';
import { parseIni, iniSection } from './ini';
import { checkRaceIni, writeAssistsIni, writeClientFiles, writeRaceIni } from './race-ini';
import { AcConfigError } from './server-config';
import { beginnerAssists, hotlapClient, partySeatClient } from './test-fixtures/example-races';
import { expectGolden } from './test-fixtures/golden';

describe('race.ini and assists.ini golden files', () => {
  it('single-player hotlap', () => {
    const files = writeClientFiles(hotlapClient, beginnerAssists);
    expectGolden('hotlap-single-seat/race.ini', files.raceIni);
    expectGolden('hotlap-single-seat/assists.ini', files.assistsIni);
  });

  it('a seat of a multiplayer party', () => {
    expectGolden('party-race-3-seats-laps/race.ini', writeRaceIni(partySeatClient));
  });
});

describe('writeRaceIni', () => {
  it('[REMOTE] is active with the server, port, password and requested car for a party', () => {
    const remote = iniSection(parseIni(writeRaceIni(partySeatClient)), 'REMOTE')!.values;
    expect(Object.fromEntries(remote)).toEqual({
      ACTIVE: '1',
      SERVER_IP: '192.168.1.20',
      SERVER_PORT: '9600',
      NAME: 'Ana Lima',
      TEAM: '',
      GUID: '76561198000000001',
      REQUESTED_CAR: 'lotus_exos_125',
      PASSWORD: 'k3Yp4rty',
    });
    const single = iniSection(parseIni(writeRaceIni(hotlapClient)), 'REMOTE')!.values;
    expect(Object.fromEntries(single)).toEqual({ ACTIVE: '0' });
  });

  it('refuses a race session without laps or minutes, and no sessions single-player', () => {
    expect(checkRaceIni({ ...hotlapClient, sessions: [{ type: 'RACE', spawn: 'START' }] })).toEqual(
      ['session 0: race needs laps or minutes'],
    );
    expect(() => writeRaceIni({ ...hotlapClient, sessions: [] })).toThrow(AcConfigError);
  });

  it('assists.ini refuses out-of-range percentages', () => {
    expect(() => writeAssistsIni({ ...beginnerAssists, stabilityControl: 101 })).toThrow(
      AcConfigError,
    );
  });
});
