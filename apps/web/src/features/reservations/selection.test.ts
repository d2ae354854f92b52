import { describe, expect, it } from 'vitest';
import type { ParallelResponse } from '@paddock/contract/calendars';
import { minimumStayProblem, pickSideBySide, startTimesFrom } from './selection';

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

describe('minimumStayProblem', () => {
  const vr = { id: 7, type_name: 'VR Rig', type_min_minutes: 120 };
  const cockpit = { id: 1, type_name: 'Pro Cockpit', type_min_minutes: 30 };
  const pick = (calendar: number, times: string[]) =>
    times.map((t) => ({ calendar, slot: `2026-12-01T${t}` }));

  it('names the seat type and its minimum in words for a short VR run', () => {
    expect(minimumStayProblem(pick(7, ['10:00', '10:30']), [vr, cockpit])).toBe(
      'VR Rig seats are booked for at least 2 hours in a row.',
    );
  });

  it('passes a full run, a standard seat, and a run joined to own bookings', () => {
    expect(
      minimumStayProblem(pick(7, ['10:00', '10:30', '11:00', '11:30']), [vr, cockpit]),
    ).toBeNull();
    expect(minimumStayProblem(pick(1, ['10:00']), [vr, cockpit])).toBeNull();
    expect(
      minimumStayProblem(pick(7, ['12:00']), [vr], () =>
        pick(7, ['10:30', '11:00', '11:30']).map((c) => c.slot),
      ),
    ).toBeNull();
  });
});
