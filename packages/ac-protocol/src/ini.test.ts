import { describe, expect, it } from 'vitest';
import { iniSection, parseIni, writeIni } from './ini';

describe('writeIni', () => {
  it('writes sections and keys in order, booleans as 1/0, CRLF by default', () => {
    const text = writeIni([
      ['SERVER', { NAME: 'Paddock #1; Bay 2', MAX_CLIENTS: 3, LOOP_MODE: false }],
      ['RACE', { LAPS: 10 }],
    ]);
    expect(text).toBe(
      '[SERVER]\r\nNAME=Paddock #1; Bay 2\r\nMAX_CLIENTS=3\r\nLOOP_MODE=0\r\n\r\n[RACE]\r\nLAPS=10\r\n',
    );
    expect(writeIni([['A', { B: true }]], { eol: '\n' })).toBe('[A]\nB=1\n');
  });

  it('refuses a line break in a value and odd names', () => {
    expect(() => writeIni([['A', { B: 'x\ny' }]])).toThrow(RangeError);
    expect(() => writeIni([['A B', {}]])).toThrow(RangeError);
    expect(() => writeIni([['A', { 'B=C': 1 }]])).toThrow(RangeError);
    expect(() => writeIni([['A', { B: Number.NaN }]])).toThrow(RangeError);
  });
});

describe('parseIni', () => {
  it('reads what writeIni writes, keeping # and ; inside values', () => {
    const text = writeIni([['SERVER', { NAME: 'Paddock #1; Bay 2', TRACK: 'monza' }]]);
    const ini = parseIni(text);
    expect(ini.problems).toEqual([]);
    expect(iniSection(ini, 'SERVER')?.values.get('NAME')).toBe('Paddock #1; Bay 2');
  });

  it('skips comments and blank lines, accepts LF and a byte-order mark', () => {
    const ini = parseIni('\uFEFF; comment\n# another\n\n[A]\nX = 1 \n');
    expect(ini.problems).toEqual([]);
    expect(iniSection(ini, 'A')?.values.get('X')).toBe('1');
  });

  it('lists what it cannot read instead of throwing', () => {
    const ini = parseIni('X=1\n[A]\nnonsense\nY=1\nY=2\n[A]\n');
    expect(ini.problems).toEqual([
      'line 1: X is outside any section',
      'line 3: not a [SECTION] or KEY=VALUE: "nonsense"',
      'line 5: [A] Y appears twice',
      'line 6: section [A] appears twice',
    ]);
  });
});
