import { describe, expect, it } from 'vitest';
import { daySlots, nextDate, type LocationHours } from '../../lib/slots';
import { parallelStarts, takenBySeat } from './parallel';

const hours = (open: string, close: string): LocationHours => ({
  timezone: 'America/Los_Angeles',
  openingHours: Object.fromEntries(
    ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open, close }]]),
  ),
  specialHours: {},
});
const date = '2026-06-10';
const slotsOf = (h: LocationHours) => [...daySlots(h, date), ...daySlots(h, nextDate(date))];
const starts = (m: Map<number, { slot: string }[]>, id: number) =>
  (m.get(id) ?? []).map((s) => s.slot.slice(11));

describe('parallelStarts', () => {
  const h = hours('10:00', '12:00');
  const base = { date, slots: slotsOf(h), seatIds: [1, 2, 3], bookable: () => true };

  it('finds starts where enough seats are free for the whole run', () => {
    const taken = takenBySeat([
      { calendarId: 1, slot: `${date}T10:30` },
      { calendarId: 2, slot: `${date}T11:00` },
    ]);
    const result = parallelStarts({ ...base, taken, length: 2, racers: 2 });
    // 10:00–11:00: seat 1 busy at 10:30 → seats 2,3. 10:30–11:30: seat 3 only → no.
    // 11:00–12:00: seats 1,3.
    expect(starts(result, 1)).toEqual(['11:00']);
    expect(starts(result, 2)).toEqual(['10:00']);
    expect(starts(result, 3)).toEqual(['10:00', '11:00']);
  });

  it('needs the run to fit before closing', () => {
    const result = parallelStarts({ ...base, taken: new Map(), length: 4, racers: 1 });
    expect(starts(result, 1)).toEqual(['10:00']);
    expect(parallelStarts({ ...base, taken: new Map(), length: 5, racers: 1 }).get(1)).toEqual([]);
  });

  it('asks for more racers than seats → nothing', () => {
    const result = parallelStarts({ ...base, taken: new Map(), length: 1, racers: 4 });
    expect([...result.values()].every((list) => list.length === 0)).toBe(true);
  });

  it('skips starts with an unbookable slot in the run', () => {
    const result = parallelStarts({
      ...base,
      taken: new Map(),
      length: 2,
      racers: 1,
      bookable: (s) => s.slot >= `${date}T10:30`,
    });
    expect(starts(result, 1)).toEqual(['10:30', '11:00']);
  });

  it('runs across midnight but only starts on the date', () => {
    const late = hours('22:00', '02:00');
    const result = parallelStarts({
      date,
      slots: slotsOf(late),
      seatIds: [1],
      taken: new Map(),
      bookable: () => true,
      length: 4,
      racers: 1,
    });
    // The date's own 00:00–01:30 tail starts are included too (calendar-day semantics).
    expect(starts(result, 1)).toEqual(['00:00', '22:00', '22:30', '23:00', '23:30']);
  });

  it('breaks a run at a gap between ranges', () => {
    const split: LocationHours = {
      timezone: 'Europe/London',
      openingHours: {
        '3': [
          { open: '10:00', close: '11:00' },
          { open: '11:30', close: '12:30' },
        ],
      },
      specialHours: {},
    };
    const result = parallelStarts({
      date,
      slots: slotsOf(split),
      seatIds: [1],
      taken: new Map(),
      bookable: () => true,
      length: 2,
      racers: 1,
    });
    expect(starts(result, 1)).toEqual(['10:00', '11:30']);
  });
});
