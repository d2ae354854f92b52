import { describe, expect, it } from 'vitest';
import { boardStart } from './boards.service';

describe('boardStart', () => {
  it('counts a rolling frame in whole 24-hour days, across a daylight-saving change too', () => {
    // Los Angeles moved its clocks on 2026-03-08: the week before still spans 168 hours.
    const now = new Date('2026-03-10T19:00:00Z');
    const start = boardStart({ timeFrameDays: 7, since: null }, now)!;
    expect(now.getTime() - start.getTime()).toBe(168 * 3600_000);
    expect(start.toISOString()).toBe('2026-03-03T19:00:00.000Z');
  });

  it('starts a dated board at midnight UTC of its date, and an open one never', () => {
    expect(
      boardStart({ timeFrameDays: null, since: '2026-11-01' }, new Date())!.toISOString(),
    ).toBe('2026-11-01T00:00:00.000Z');
    expect(boardStart({ timeFrameDays: null, since: null }, new Date())).toBeNull();
  });
});
