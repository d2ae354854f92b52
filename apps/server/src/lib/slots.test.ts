import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  bookingWindow,
  daySlots,
  findSlot,
  followsDirectly,
  isBookable,
  isoInZone,
  isValidDate,
  isValidSlotKey,
  slotKeyAt,
  viewWindow,
  type LocationHours,
  type WeeklyHours,
} from './slots';

const allDay = { open: '00:00', close: '00:00' };
const everyDay = (ranges: { open: string; close: string }[]): WeeklyHours =>
  Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ranges]));
const hours = (timezone: string, openingHours: WeeklyHours, specialHours = {}): LocationHours => ({
  timezone,
  openingHours,
  specialHours,
});
const keys = (h: LocationHours, date: string) => daySlots(h, date).map((s) => s.slot);
const unique = (xs: string[]) => new Set(xs).size === xs.length;

describe('daySlots on an ordinary day', () => {
  it('makes half-hours at :00 and :30 inside the hours, with the offset in time', () => {
    const h = hours('America/Los_Angeles', everyDay([{ open: '10:00', close: '12:00' }]));
    expect(daySlots(h, '2026-06-10')).toEqual([
      { slot: '2026-06-10T10:00', time: '2026-06-10T10:00:00-07:00', startMs: expect.any(Number) },
      { slot: '2026-06-10T10:30', time: '2026-06-10T10:30:00-07:00', startMs: expect.any(Number) },
      { slot: '2026-06-10T11:00', time: '2026-06-10T11:00:00-07:00', startMs: expect.any(Number) },
      { slot: '2026-06-10T11:30', time: '2026-06-10T11:30:00-07:00', startMs: expect.any(Number) },
    ]);
  });

  it('starts at the first :00/:30 after an odd opening and drops a part slot at closing', () => {
    const h = hours('Europe/London', everyDay([{ open: '09:15', close: '11:10' }]));
    expect(keys(h, '2026-06-10')).toEqual([
      '2026-06-10T09:30',
      '2026-06-10T10:00',
      '2026-06-10T10:30',
    ]);
  });

  it('uses each weekday’s own ranges, several per day', () => {
    const h = hours('America/Los_Angeles', {
      '3': [
        { open: '10:00', close: '11:00' },
        { open: '14:00', close: '15:00' },
      ],
    });
    expect(keys(h, '2026-06-10')).toEqual([
      '2026-06-10T10:00',
      '2026-06-10T10:30',
      '2026-06-10T14:00',
      '2026-06-10T14:30',
    ]); // 2026-06-10 is a Wednesday (3)
    expect(keys(h, '2026-06-11')).toEqual([]);
  });

  it('has 48 slots on a 24-hour day', () => {
    const h = hours('America/Los_Angeles', everyDay([allDay]));
    const day = keys(h, '2026-06-10');
    expect(day).toHaveLength(48);
    expect(day[0]).toBe('2026-06-10T00:00');
    expect(day[47]).toBe('2026-06-10T23:30');
  });
});

describe('hours past midnight', () => {
  // Friday 18:00 → 02:00 Saturday; Saturday 18:00 → 01:00 Sunday.
  const h = hours('America/Los_Angeles', {
    '5': [{ open: '18:00', close: '02:00' }],
    '6': [{ open: '18:00', close: '01:00' }],
  });

  it('puts the after-midnight tail on the date it falls on', () => {
    expect(keys(h, '2026-06-12')).toEqual([
      '2026-06-12T18:00',
      '2026-06-12T18:30',
      '2026-06-12T19:00',
      '2026-06-12T19:30',
      '2026-06-12T20:00',
      '2026-06-12T20:30',
      '2026-06-12T21:00',
      '2026-06-12T21:30',
      '2026-06-12T22:00',
      '2026-06-12T22:30',
      '2026-06-12T23:00',
      '2026-06-12T23:30',
    ]);
    const saturday = keys(h, '2026-06-13');
    expect(saturday.slice(0, 4)).toEqual([
      '2026-06-13T00:00',
      '2026-06-13T00:30',
      '2026-06-13T01:00',
      '2026-06-13T01:30',
    ]);
    expect(saturday[4]).toBe('2026-06-13T18:00');
    expect(keys(h, '2026-06-14')).toEqual(['2026-06-14T00:00', '2026-06-14T00:30']);
  });

  it('treats close equal to open as 24 hours', () => {
    const round = hours('Europe/London', { '3': [{ open: '12:00', close: '12:00' }] });
    expect(keys(round, '2026-06-10')).toHaveLength(24);
    expect(keys(round, '2026-06-11')).toHaveLength(24);
    expect(keys(round, '2026-06-11').at(-1)).toBe('2026-06-11T11:30');
  });

  it('finds a tail slot and runs straight across midnight', () => {
    const late = findSlot(h, '2026-06-12T23:30')!;
    const early = findSlot(h, '2026-06-13T00:00')!;
    expect(early.time).toBe('2026-06-13T00:00:00-07:00');
    expect(followsDirectly(late, early)).toBe(true);
    expect(findSlot(h, '2026-06-13T02:00')).toBeNull();
  });
});

describe('closed dates and special hours', () => {
  const h = hours('America/Los_Angeles', everyDay([{ open: '10:00', close: '22:00' }]), {
    '2026-12-25': [],
    '2026-12-24': [{ open: '10:00', close: '12:00' }],
    '2026-12-31': [{ open: '20:00', close: '01:00' }],
  });

  it('has no slots on a closed date', () => {
    expect(keys(h, '2026-12-25')).toEqual([]);
    expect(findSlot(h, '2026-12-25T12:00')).toBeNull();
  });

  it('replaces the weekly hours with a date’s special hours', () => {
    expect(keys(h, '2026-12-24')).toHaveLength(4);
    expect(findSlot(h, '2026-12-24T15:00')).toBeNull();
  });

  it('lets special hours cross midnight into an ordinary day', () => {
    const newYear = keys(h, '2027-01-01');
    expect(newYear.slice(0, 2)).toEqual(['2027-01-01T00:00', '2027-01-01T00:30']);
    expect(newYear[2]).toBe('2027-01-01T10:00');
    expect(keys(h, '2026-12-31')).toEqual([
      '2026-12-31T20:00',
      '2026-12-31T20:30',
      '2026-12-31T21:00',
      '2026-12-31T21:30',
      '2026-12-31T22:00',
      '2026-12-31T22:30',
      '2026-12-31T23:00',
      '2026-12-31T23:30',
    ]);
  });
});

describe('daylight saving in America/Los_Angeles', () => {
  const h = hours('America/Los_Angeles', everyDay([allDay]));

  it('spring forward (2026-03-08): 46 slots, none in the skipped hour', () => {
    const day = daySlots(h, '2026-03-08');
    expect(day).toHaveLength(46);
    expect(unique(day.map((s) => s.slot))).toBe(true);
    const keysOnly = day.map((s) => s.slot);
    expect(keysOnly).not.toContain('2026-03-08T02:00');
    expect(keysOnly).not.toContain('2026-03-08T02:30');
    const at = (k: string) => day.find((s) => s.slot === k)!;
    expect(at('2026-03-08T01:30').time).toBe('2026-03-08T01:30:00-08:00');
    expect(at('2026-03-08T03:00').time).toBe('2026-03-08T03:00:00-07:00');
    expect(followsDirectly(at('2026-03-08T01:30'), at('2026-03-08T03:00'))).toBe(true);
    expect(findSlot(h, '2026-03-08T02:30')).toBeNull();
  });

  it('fall back (2026-11-01): 50 half-hours, 48 unique keys, the repeated hour once', () => {
    const day = daySlots(h, '2026-11-01');
    expect(day).toHaveLength(48);
    expect(unique(day.map((s) => s.slot))).toBe(true);
    const at = (k: string) => day.find((s) => s.slot === k)!;
    expect(at('2026-11-01T01:00').time).toBe('2026-11-01T01:00:00-07:00');
    expect(at('2026-11-01T01:30').time).toBe('2026-11-01T01:30:00-07:00');
    expect(at('2026-11-01T02:00').time).toBe('2026-11-01T02:00:00-08:00');
    // The second pass of 01:00–02:00 (PST) is not bookable: a gap, not a run.
    expect(followsDirectly(at('2026-11-01T01:30'), at('2026-11-01T02:00'))).toBe(false);
    expect(findSlot(h, '2026-11-01T01:30')!.time).toBe('2026-11-01T01:30:00-07:00');
  });

  it('keeps the day before and after at 48', () => {
    expect(daySlots(h, '2026-03-07')).toHaveLength(48);
    expect(daySlots(h, '2026-03-09')).toHaveLength(48);
    expect(daySlots(h, '2026-10-31')).toHaveLength(48);
    expect(daySlots(h, '2026-11-02')).toHaveLength(48);
  });

  it('opens in the repeated hour at its first occurrence', () => {
    const early = hours('America/Los_Angeles', { '7': [{ open: '01:00', close: '03:00' }] });
    const day = daySlots(early, '2026-11-01');
    expect(day.map((s) => s.slot)).toEqual([
      '2026-11-01T01:00',
      '2026-11-01T01:30',
      '2026-11-01T02:00',
      '2026-11-01T02:30',
    ]);
    expect(day[0].time).toBe('2026-11-01T01:00:00-07:00');
  });

  it('opens at the end of a skipped hour when the opening time does not exist', () => {
    const early = hours('America/Los_Angeles', { '7': [{ open: '02:00', close: '04:00' }] });
    expect(keys(early, '2026-03-08')).toEqual(['2026-03-08T03:00', '2026-03-08T03:30']);
  });

  it('crosses the change overnight (Saturday 20:00 → Sunday 04:00)', () => {
    const overnight = hours('America/Los_Angeles', { '6': [{ open: '20:00', close: '04:00' }] });
    expect(keys(overnight, '2026-03-08')).toEqual([
      '2026-03-08T00:00',
      '2026-03-08T00:30',
      '2026-03-08T01:00',
      '2026-03-08T01:30',
      '2026-03-08T03:00',
      '2026-03-08T03:30',
    ]);
    expect(keys(overnight, '2026-11-01')).toEqual([
      '2026-11-01T00:00',
      '2026-11-01T00:30',
      '2026-11-01T01:00',
      '2026-11-01T01:30',
      '2026-11-01T02:00',
      '2026-11-01T02:30',
      '2026-11-01T03:00',
      '2026-11-01T03:30',
    ]);
  });
});

describe('daylight saving in Europe/London', () => {
  const h = hours('Europe/London', everyDay([allDay]));

  it('spring forward (2026-03-29): 01:00–02:00 does not exist', () => {
    const day = daySlots(h, '2026-03-29');
    expect(day).toHaveLength(46);
    const k = day.map((s) => s.slot);
    expect(unique(k)).toBe(true);
    expect(k).not.toContain('2026-03-29T01:00');
    expect(k).not.toContain('2026-03-29T01:30');
    expect(day.find((s) => s.slot === '2026-03-29T00:30')!.time).toBe('2026-03-29T00:30:00+00:00');
    expect(day.find((s) => s.slot === '2026-03-29T02:00')!.time).toBe('2026-03-29T02:00:00+01:00');
  });

  it('fall back (2026-10-25): 01:00–02:00 happens twice, bookable once (BST)', () => {
    const day = daySlots(h, '2026-10-25');
    expect(day).toHaveLength(48);
    expect(unique(day.map((s) => s.slot))).toBe(true);
    expect(day.find((s) => s.slot === '2026-10-25T01:00')!.time).toBe('2026-10-25T01:00:00+01:00');
    expect(day.find((s) => s.slot === '2026-10-25T02:00')!.time).toBe('2026-10-25T02:00:00+00:00');
  });
});

describe('keys and windows', () => {
  it('accepts only real :00/:30 keys', () => {
    expect(isValidSlotKey('2026-06-10T10:30')).toBe(true);
    expect(isValidSlotKey('2026-06-10T10:15')).toBe(false);
    expect(isValidSlotKey('2026-02-30T10:00')).toBe(false);
    expect(isValidSlotKey('2026-06-10T24:00')).toBe(false);
    expect(isValidSlotKey('2026-06-10 10:00')).toBe(false);
  });

  it('turns an instant into the local key', () => {
    expect(slotKeyAt(new Date('2026-06-10T17:30:00Z'), 'America/Los_Angeles')).toBe(
      '2026-06-10T10:30',
    );
    expect(slotKeyAt(new Date('2026-06-10T17:20:00Z'), 'America/Los_Angeles')).toBeNull();
  });

  it('gives customers today → two months and staff two months back → end of next month', () => {
    const now = new Date('2026-01-05T20:00:00Z'); // 12:00 in Los Angeles
    const zone = 'America/Los_Angeles';
    expect(bookingWindow('customer', zone, now)).toEqual({
      first: '2026-01-05',
      last: '2026-03-05',
    });
    expect(viewWindow('customer', zone, now)).toEqual({ first: '2025-11-05', last: '2026-03-05' });
    expect(viewWindow('staff', zone, new Date('2026-01-25T20:00:00Z'))).toEqual({
      first: '2025-11-25',
      last: '2026-03-25',
    });
    expect(viewWindow('staff', zone, new Date('2026-05-05T20:00:00Z'))).toEqual({
      first: '2026-03-05',
      last: '2026-07-05',
    });
    expect(bookingWindow('staff', zone, new Date('2026-01-31T20:00:00Z')).last).toBe('2026-03-31');
  });

  it('uses the location’s date for today, not UTC', () => {
    const lateEvening = new Date('2026-01-06T06:00:00Z'); // 22:00 on the 5th in Los Angeles
    expect(bookingWindow('customer', 'America/Los_Angeles', lateEvening).first).toBe('2026-01-05');
    expect(bookingWindow('customer', 'Europe/London', lateEvening).first).toBe('2026-01-06');
  });

  it('never books a slot that has started', () => {
    const h = hours('America/Los_Angeles', everyDay([allDay]));
    const now = new Date('2026-06-10T17:40:00Z'); // 10:40 local
    const window = bookingWindow('customer', 'America/Los_Angeles', now);
    expect(isBookable(findSlot(h, '2026-06-10T10:30')!, window, now)).toBe(false);
    expect(isBookable(findSlot(h, '2026-06-10T11:00')!, window, now)).toBe(true);
    expect(isBookable(findSlot(h, '2026-08-10T11:00')!, window, now)).toBe(true);
    expect(isBookable(findSlot(h, '2026-08-11T11:00')!, window, now)).toBe(false);
  });
});

describe('plain arithmetic where luxon was', () => {
  it('finds the same real dates as luxon, leap years included; year 0000 as the contract', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    // The contract's real-date rule (the API document's pattern) starts at year 0001.
    expect(isValidDate('0000-01-01')).toBe(false);
    const years = [1, 4, 99, 100, 200, 400, 1582, 1900, 1999, 2000, 2024, 2026, 2100, 2400, 9999];
    for (const year of years)
      for (let month = 0; month <= 13; month++)
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          expect(isValidDate(date), date).toBe(DateTime.fromISO(date, { zone: 'UTC' }).isValid);
        }
    for (const date of ['2026-1-01', '2026-01-1', '20260101', '2026-01-01T00:00', ' 2026-01-01'])
      expect(isValidDate(date), date).toBe(false);
  });

  it("gives each slot's time as isoInZone gives its instant, across daylight saving", () => {
    for (const [zone, dates] of [
      ['America/Los_Angeles', ['2026-03-08', '2026-11-01', '2026-06-10']],
      ['Europe/London', ['2026-03-29', '2026-10-25']],
      ['Australia/Lord_Howe', ['2026-04-05', '2026-10-04']],
      ['UTC', ['2026-12-31']],
    ] as const)
      for (const date of dates)
        for (const slot of daySlots(hours(zone, everyDay([allDay])), date))
          expect(slot.time).toBe(isoInZone(new Date(slot.startMs), zone));
  });
});
