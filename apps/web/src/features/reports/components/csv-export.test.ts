import { describe, expect, it } from 'vitest';
import { toCsv } from './csv-export';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(
      toCsv(
        ['Name', 'Spent'],
        [
          ['Smith, Jo', 1200],
          ['Say "hi"', -5],
          ['=HYPERLINK("x")', 0],
        ],
      ),
    ).toBe('Name,Spent\r\n"Smith, Jo",1200\r\n"Say ""hi""",-5\r\n"\'=HYPERLINK(""x"")",0\r\n');
  });
});
