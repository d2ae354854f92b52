import { describe, expect, it } from 'vitest';
import { AcConfigError, checkServerRace, writeServerConfig } from './server-config';
import { hotlapRace, partyRaceByLaps, timedRaceWeekend } from './test-fixtures/example-races';
import { expectGolden } from './test-fixtures/golden';

describe('writeServerConfig golden files', () => {
  const cases = {
    'hotlap-single-seat': hotlapRace,
    'party-race-3-seats-laps': partyRaceByLaps,
    'timed-race-practice-qualify': timedRaceWeekend,
  };
  for (const [name, race] of Object.entries(cases)) {
    it(name, () => {
      const files = writeServerConfig(race);
      expectGolden(`${name}/server_cfg.ini`, files.serverCfg);
      expectGolden(`${name}/entry_list.ini`, files.entryList);
    });
  }
});

describe('writeServerConfig', () => {
  it('one [CAR_n] per seat, max clients = party size, cars from the entries', () => {
    const { serverCfg, entryList } = writeServerConfig(partyRaceByLaps);
    expect(serverCfg).toContain('MAX_CLIENTS=3\r\n');
    expect(serverCfg).toContain('CARS=lotus_exos_125;ks_mazda_mx5_cup\r\n');
    expect(entryList.match(/^\[CAR_\d+\]/gm)).toEqual(['[CAR_0]', '[CAR_1]', '[CAR_2]']);
    expect(entryList).toContain('FIXED_SETUP=paddock_default.ini');
  });

  it('a race by time writes LAPS=0 and TIME; by laps LAPS and TIME=0', () => {
    expect(writeServerConfig(timedRaceWeekend).serverCfg).toMatch(
      /\[RACE\]\r\nNAME=Race\r\nLAPS=0\r\nTIME=20\r\n/,
    );
    expect(writeServerConfig(partyRaceByLaps).serverCfg).toMatch(
      /\[RACE\]\r\nNAME=Race\r\nLAPS=10\r\nTIME=0\r\n/,
    );
  });

  it('lists every problem of a broken race at once', () => {
    const broken = {
      ...partyRaceByLaps,
      cars: ['lotus_exos_125'],
      maxClients: 2,
      sessions: { race: { laps: 0 } },
      plugin: { address: 'localhost', localPort: 11000 },
      entries: partyRaceByLaps.entries.map((e, i) => (i === 0 ? { ...e, guid: 'steam:1' } : e)),
    };
    expect(checkServerRace(broken)).toEqual([
      'maxClients 2 differs from the 3 entries',
      'entry 0: guid is not a Steam64 id',
      'entry 2: car ks_mazda_mx5_cup is not in cars',
      'race laps must be > 0',
      'plugin address "localhost" is not host:port',
    ]);
    expect(() => writeServerConfig(broken)).toThrow(AcConfigError);
  });

  it('refuses no sessions, no entries, equal plugin ports', () => {
    const problems = checkServerRace({
      ...hotlapRace,
      sessions: {},
      entries: [],
      plugin: { address: '127.0.0.1:11000', localPort: 11000 },
    });
    expect(problems).toContain('no entries');
    expect(problems).toContain('no sessions');
    expect(problems).toContain('plugin address port and localPort must differ');
  });
});
