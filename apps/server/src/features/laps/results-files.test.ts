import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { AC_RESULTS } from '../../test/fixtures';
import { parseResultsFile, readableName, ResultsFileError } from './results-files';

const FIXTURES = AC_RESULTS;
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const one = (bytes: Buffer) => parseResultsFile(bytes)[0];

describe('results files', () => {
  it('reads an AC server race as it is', () => {
    const s = one(read('server-race-monza.json'));
    expect(s).toMatchObject({ sim: 'ac', trackKey: 'monza', layout: 'full course', kind: 'RACE' });
    expect(s.laps).toHaveLength(82);
    expect(s.laps.every((l) => l.valid)).toBe(true);
    expect(s.results).toHaveLength(17);
    expect(s.results[0]).toMatchObject({ position: 1, name: 'Andrea Sorlini', bestLapMs: 98907 });
  });

  it('reads an AC qualifying: cut laps are not valid, 999999999 is no time', () => {
    const s = one(read('server-qualify-monza.json'));
    expect(s.kind).toBe('QUALIFY');
    expect(s.laps).toHaveLength(101);
    expect(s.laps.filter((l) => !l.valid)).toHaveLength(56);
    expect(s.results[0]).toMatchObject({ name: 'Timo Haapala', bestLapMs: 97435 });
    expect(s.results.at(-1)!.bestLapMs).toBeNull();
  });

  it('reads an ACC results file in UTF-16LE without a byte-order mark', () => {
    const s = one(read('acc-race.json'));
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
    const s = one(Buffer.from(JSON.stringify(file)));
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
    expect(() => one(truncated)).toThrow(/not valid JSON/);
    expect(() => one(Buffer.from('[1,2]'))).toThrow(ResultsFileError);
    expect(() => one(Buffer.from('{"hello": 1}'))).toThrow(/not an Assetto Corsa/);
  });

  it('reads ACC session types as the server writes them: FP, Q, R, numbered in a weekend (Q1, Q2, R1, R2), or as numbers', () => {
    const acc = JSON.parse(read('acc-race.json').toString('utf16le'));
    const kindOf = (sessionType: unknown) =>
      one(Buffer.from(JSON.stringify({ ...acc, sessionType }))).kind;
    const kinds = Object.fromEntries(
      ['FP', 'Q', 'R', 'Q1', 'Q2', 'R1', 'R2', 'FP2', 0, 4, 9, 10, '10'].map((k) => [
        String(k),
        kindOf(k),
      ]),
    );
    expect(kinds).toEqual({
      FP: 'PRACTICE',
      Q: 'QUALIFY',
      R: 'RACE',
      Q1: 'QUALIFY',
      Q2: 'QUALIFY',
      R1: 'RACE',
      R2: 'RACE',
      FP2: 'PRACTICE',
      0: 'PRACTICE',
      4: 'QUALIFY',
      9: 'QUALIFY',
      10: 'RACE',
    });
  });

  it('reads an ACC player id `S` + Steam64 as the Steam id a racer registers', () => {
    const text = read('acc-race.json')
      .toString('utf16le')
      .replaceAll('"playerId": "123"', '"playerId": "S76561197971070302"');
    const s = one(Buffer.from(text, 'utf16le'));
    expect(s.results[0]).toMatchObject({ name: 'Andrea Mel', guid: '76561197971070302' });
    expect(s.laps.filter((l) => l.guid === '76561197971070302').length).toBeGreaterThan(0);
  });

  it('numbers each car’s laps in file order, so two laps of one time stay two', () => {
    const file = JSON.parse(read('server-race-monza.json').toString('utf8'));
    const ofCar9 = file.Laps.filter((l: { CarId: number }) => l.CarId === 9);
    ofCar9[2].LapTime = ofCar9[1].LapTime;
    const laps = one(Buffer.from(JSON.stringify(file))).laps.filter((l) => l.carId === 9);
    expect(laps.map((l) => l.carLap)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(laps[1].lapMs).toBe(laps[2].lapMs);
  });

  it('knows a session by its content: the same session re-saved is the same, another is not', () => {
    const bytes = read('server-race-monza.json');
    const key = one(bytes).sessionKey;
    const file = JSON.parse(bytes.toString('utf8'));
    const resaved = Buffer.from(`\uFEFF${JSON.stringify(file, null, 4)}\r\n`, 'utf8');
    expect(one(resaved).sessionKey).toBe(key);
    expect(one(Buffer.concat([bytes, Buffer.from('\n')])).sessionKey).toBe(key);
    // The qualifying of the same day, and the race's file with one result changed, are others.
    expect(one(read('server-qualify-monza.json')).sessionKey).not.toBe(key);
    file.Result[0].TotalTime += 1;
    expect(one(Buffer.from(JSON.stringify(file))).sessionKey).not.toBe(key);
    const acc = read('acc-race.json');
    const accKey = one(acc).sessionKey;
    const accText = acc.toString('utf16le');
    expect(one(Buffer.from(`${accText}\n`, 'utf16le')).sessionKey).toBe(accKey);
    const asR2 = accText.replace('"sessionType": "R"', '"sessionType": "R2"');
    expect(asR2).not.toBe(accText);
    expect(one(Buffer.from(asR2, 'utf16le')).sessionKey).not.toBe(accKey);
  });

  it('names unknown content readably', () => {
    expect(readableName('ks_monza', 'full course')).toBe('Monza (Full Course)');
    expect(readableName('brands_hatch')).toBe('Brands Hatch');
  });
});
