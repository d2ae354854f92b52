import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { LMU_RESULTS, R3E_RESULTS, RF2_RESULTS } from '../../test/fixtures';
import { parseResultsFile, ResultsFileError } from './results-files';

const rf2 = (name: string) => fs.readFileSync(path.join(RF2_RESULTS, name));
const r3e = (name: string) => fs.readFileSync(path.join(R3E_RESULTS, name));
const lmu = (name: string) => fs.readFileSync(path.join(LMU_RESULTS, name));

describe('rFactor 2 results XML (real files)', () => {
  it('reads a race: track, laps in milliseconds, sectors, a Latin-1 name as it was meant', () => {
    const [s] = parseResultsFile(rf2('race.xml'));
    expect(s).toMatchObject({
      sim: 'rf2',
      trackKey: 'Sebring [Virtua_LM]',
      layout: 'Sebring 12h Course',
      kind: 'RACE',
      serverName: 'RookiesNight_WSu',
    });
    // 5 drivers × 10 laps, every one with a time (read by hand).
    expect(s.laps).toHaveLength(50);
    expect(s.laps[0]).toMatchObject({ lapMs: 134848, sectorsMs: [56012, 32491, 46345] });
    expect(s.results.map((r) => r.name)).toContain('Gérard larrousse');
    expect(s.results[0]).toMatchObject({ position: 1, name: 'Malek1th', laps: 10 });
    expect(s.results.map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('leaves out laps with no time (`--.----`) but counts them in each car’s lap numbers', () => {
    const [s] = parseResultsFile(rf2('qualify.xml'));
    expect(s.kind).toBe('QUALIFY');
    // 30 laps in the file, 10 of them `--.----`.
    expect(s.laps).toHaveLength(20);
    // Qualifying is ordered by best lap.
    const bests = s.results.map((r) => r.bestLapMs ?? Infinity);
    expect(bests).toEqual([...bests].sort((a, b) => a - b));
  });

  it('gives each swapped stint to the driver who drove it', () => {
    const [s] = parseResultsFile(rf2('race_changed_with_swaps.xml'));
    const names = new Set(s.laps.map((l) => l.name));
    expect(names).toContain('Paul Schuman');
    expect(names).toContain('Nick Woodbury');
  });

  it('puts a car that retired after 5 laps behind every car that did 12, whatever the file says', () => {
    const [s] = parseResultsFile(rf2('race_with_corrupted_positions.xml'));
    expect(s.results.map((r) => [r.name, r.laps])).toEqual([
      ['Tig_green', 12],
      ['mauserrifle', 12],
      ['Leonardo Saponti', 12],
      ['Malek1th', 5],
    ]);
  });

  it('reads files with characters XML does not allow, an unescaped &, and no laps', () => {
    const [bad] = parseResultsFile(rf2('qualify_with_invalid_chars.xml'));
    expect(bad.results).toHaveLength(6);
    // eslint-disable-next-line no-control-regex -- no control character may reach a name
    expect(bad.results.every((r) => !/[\u0000-\u001f]/.test(r.name))).toBe(true);
    const [amp] = parseResultsFile(rf2('race_with_amp_chars_in_vehicle.xml'));
    expect(amp.laps).toHaveLength(50);
    const [empty] = parseResultsFile(rf2('practice_without_laps.xml'));
    expect(empty).toMatchObject({ kind: 'PRACTICE', laps: [] });
    expect(empty.results).toHaveLength(2);
  });

  it('knows the same session re-saved, and tells rFactor 2 from LMU only when told', () => {
    const bytes = rf2('race.xml');
    const [a] = parseResultsFile(bytes);
    const [b] = parseResultsFile(Buffer.concat([bytes, Buffer.from('\r\n')]));
    expect(b.sessionKey).toBe(a.sessionKey);
    const [asLmu] = parseResultsFile(bytes, { xmlSim: 'lmu' });
    expect(asLmu.sim).toBe('lmu');
    expect(asLmu.sessionKey).not.toBe(a.sessionKey);
  });

  it('refuses a truncated file and XML that is not rFactor’s, saying so', () => {
    const truncated = rf2('race.xml').subarray(0, 400);
    expect(() => parseResultsFile(truncated)).toThrow(ResultsFileError);
    expect(() => parseResultsFile(Buffer.from('<rFactorXML><Other/></rFactorXML>'))).toThrow(
      /not an rFactor 2/,
    );
  });
});

describe('Le Mans Ultimate results XML (made here)', () => {
  it('takes the Steam id when the file has one, and none for a zero', () => {
    const [s] = parseResultsFile(lmu('made-here-race-with-steam-ids.xml'), { xmlSim: 'lmu' });
    expect(s).toMatchObject({ sim: 'lmu', trackKey: 'Autodromo Nazionale Monza', layout: '' });
    expect(s.results.map((r) => [r.name, r.guid])).toEqual([
      ['Ada Lind', '76561198000000001'],
      ['Bo Sten', ''],
    ]);
    expect(s.laps).toHaveLength(4);
    expect(s.laps[0]).toMatchObject({ carKey: 'Ferrari 499P', atMs: 107800 });
  });
});

describe('RaceRoom dedicated-server results JSON (real files)', () => {
  it('reads every session of the file as its own', () => {
    const sessions = parseResultsFile(r3e('qualify.and.race.json'));
    expect(sessions.map((s) => s.kind)).toEqual(['QUALIFY', 'RACE']);
    const race = sessions[1];
    expect(race).toMatchObject({ sim: 'r3e', trackKey: 'Portimao Circuit', layout: '' });
    expect(race.laps).toHaveLength(32);
    expect(race.results[0]).toMatchObject({ name: 'chin matsuo', bestLapMs: 99365 });
    // -1 and -1000 are no time.
    expect(sessions[0].results[2].bestLapMs).toBeNull();
  });

  it('keeps laps the server did not count as not valid, drops laps of no time, takes user ids', () => {
    const [, q, race] = parseResultsFile(r3e('qualify.with.invalid.laps.json'));
    // 89 qualifying laps, 29 of them -1000; 11 of the timed ones marked Valid: false.
    expect(q.laps).toHaveLength(60);
    expect(q.laps.filter((l) => !l.valid).length).toBeGreaterThan(0);
    expect(race.laps.filter((l) => !l.valid)).toHaveLength(35);
    expect(race.results[0].guid).toBe('792057');
    // Cumulative split times become sector times.
    expect(race.laps[0].sectorsMs).toEqual([28383, 41612, 34834]);
  });

  it('refuses a file of no sessions with a message, not a crash', () => {
    const file = JSON.parse(r3e('qualify.and.race.json').toString('utf8'));
    expect(() => parseResultsFile(Buffer.from(JSON.stringify({ ...file, Sessions: [] })))).toThrow(
      /holds no session/,
    );
  });

  it('reads two races of one file, and sessions without laps', () => {
    expect(parseResultsFile(r3e('log.with.race2.json')).map((s) => s.kind)).toEqual([
      'QUALIFY',
      'RACE',
      'RACE',
    ]);
    const empty = parseResultsFile(r3e('no.laps.json'));
    expect(empty.every((s) => s.laps.length === 0)).toBe(true);
    // 15 players; one (P12) has no name at all in the file and is left out of the standings.
    expect(empty[1].results).toHaveLength(14);
    expect(empty[1].results.map((r) => r.position)).toEqual(
      Array.from({ length: 14 }, (_, i) => i + 1),
    );
  });
});
