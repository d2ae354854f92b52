import { describe, expect, it } from 'vitest';
import type { ParallelResponse } from '@paddock/contract/calendars';
import { pickSideBySide, startTimesFrom } from './selection';

const seat = (id: number, slots: string[]): ParallelResponse[number] => ({
  id,
  name: `Cockpit ${id}`,
  cost_cents: 2500,
  cost_unit: '30 minutes',
  type: 1,
  type_name: 'Pro Cockpit',
  type_image: '',
  type_min_minutes: 30,
  type_description: '',
  image: '',
  event: null,
  location: 1,
  currency: 'USD',
  slots: slots.map((slot) => ({ slot, time: `${slot}:00-08:00` })),
});

describe('startTimesFrom', () => {
  it('merges the seats of each start slot and orders the starts by time', () => {
    const starts = startTimesFrom([
      seat(1, ['2026-11-24T14:00', '2026-11-24T12:00']),
      seat(2, ['2026-11-24T12:00']),
    ]);
    expect(starts.map((s) => [s.slot, s.seatIds])).toEqual([
      ['2026-11-24T12:00', [1, 2]],
      ['2026-11-24T14:00', [1]],
    ]);
  });
});

describe('pickSideBySide', () => {
  it('prefers neighbouring seats', () => {
    expect(pickSideBySide([1, 2, 3, 4, 5], [1, 3, 4], 2)).toEqual([3, 4]);
  });
  it('falls back to the first seats that fit', () => {
    expect(pickSideBySide([1, 2, 3, 4, 5], [1, 3, 5], 2)).toEqual([1, 3]);
  });
  it('picks one seat for one racer', () => {
    expect(pickSideBySide([4, 2, 9], [2, 9], 1)).toEqual([2]);
  });
});
