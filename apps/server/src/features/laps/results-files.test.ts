import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { AC_RESULTS } from '../../test/fixtures';
import { parseResultsFile, readableName, ResultsFileError } from './results-files';

const FIXTURES = AC_RESULTS;
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

describe('results files', () => {
  it('reads an AC server race as it is', () => {
    const s = parseResultsFile(read('server-race-monza.json'));
    expect(s).toMatchObject({ sim: 'ac', trackKey: 'monza', layout: 'full course', kind: 'RACE' });
    expect(s.laps).toHaveLength(82);
    expect(s.laps.every((l) => l.valid)).toBe(true);
    expect(s.results).toHaveLength(17);
    expect(s.results[0]).toMatchObject({ position: 1, name: 'Andrea Sorlini', bestLapMs: 98907 });
  });

  it('reads an AC qualifying: cut laps are not valid, 999999999 is no time', () => {
    const s = parseResultsFile(read('server-qualify-monza.json'));
    expect(s.kind).toBe('QUALIFY');
    expect(s.laps).toHaveLength(101);
    expect(s.laps.filter((l) => !l.valid)).toHaveLength(56);
    expect(s.results[0]).toMatchObject({ name: 'Timo Haapala', bestLapMs: 97435 });
    expect(s.results.at(-1)!.bestLapMs).toBeNull();
  });

  it('reads an ACC results file in UTF-16LE without a byte-order mark', () => {
    const s = parseResultsFile(read('acc-race.json'));
    expect(s).toMatchObject({ sim: 'acc', trackKey: 'brands_hatch', kind: 'RACE' });
    expect(s.laps).toHaveLength(65);
    expect(s.results[0]).toMatchObject({ position: 1, name: 'Andrea Mel', bestLapMs: 90837 });
    expect(s.results.some((r) => r.name.includes('\n'))).toBe(false);
  });

  it('keeps values a damaged file holds within what the database and the rig API take', () => {
    const file = JSON.parse(read('server-race-monza.json').toString('utf8'));
    file.TrackName = 'mon\u0000za';
    file.Laps[0] = {
      ...file.Laps[0],
      DriverName: 'Lw\u0000i',
      Cuts: 2 ** 31,
      BallastKG: 2 ** 63,
      Timestamp: 1e308,
      Sectors: [1e308, 1, 2],
    };
    const s = parseResultsFile(Buffer.from(JSON.stringify(file)));
    expect(s.trackKey).toBe('mon za');
    expect(s.laps[0]).toMatchObject({
      name: 'Lw i',
      cuts: 1000,
      valid: false,
      ballastKg: null,
      atMs: null,
      sectorsMs: [],
    });
  });

  it('refuses what is not a results file, saying what is wrong', () => {
    const truncated = read('server-race-monza.json').subarray(0, 500);
    expect(() => parseResultsFile(truncated)).toThrow(/not valid JSON/);
    expect(() => parseResultsFile(Buffer.from('[1,2]'))).toThrow(ResultsFileError);
    expect(() => parseResultsFile(Buffer.from('{"hello": 1}'))).toThrow(/not an Assetto Corsa/);
  });

  it('names unknown content readably', () => {
    expect(readableName('ks_monza', 'full course')).toBe('Monza (Full Course)');
    expect(readableName('brands_hatch')).toBe('Brands Hatch');
  });
});
