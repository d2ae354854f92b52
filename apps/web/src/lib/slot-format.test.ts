import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  addMonths,
  formatInstantShort,
  formatInstantTime,
  formatIsoDateFull,
  formatSlotDate,
  formatSlotShort,
  formatSlotTime,
  formatVenueZone,
  isoFromDate,
  runSlots,
  todayIn,
} from './slot-format';

// These helpers left luxon for Intl (decision 0045); luxon, still used by staff screens, is the
// reference they must agree with.
const SLOTS = [
  '2026-11-24T14:00',
  '2026-11-24T00:00',
  '2026-11-24T00:30',
  '2026-11-24T12:00',
  '2026-11-24T12:30',
  '2026-11-24T23:30',
  '2026-03-29T01:30',
  '2026-10-25T01:30',
  '2024-02-29T09:00',
];
const ZONES = [
  'Europe/London',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'UTC',
];

describe('slot formatting agrees with luxon', () => {
  it.each(SLOTS)('formats %s as a date and a time', (slot) => {
    const luxon = DateTime.fromISO(slot, { zone: 'UTC' });
    expect(formatSlotDate(slot)).toBe(luxon.toFormat('cccc, LLLL d, yyyy'));
    expect(formatSlotTime(slot)).toBe(luxon.toFormat('h:mm a'));
    expect(formatSlotShort(slot)).toBe(`${slot.slice(0, 10)} ${luxon.toFormat('h:mm a')}`);
  });

  it.each(ZONES)('names runs of slots and today in %s, across changes of clock', (zone) => {
    for (const time of [
      '2026-03-29T00:00:00Z',
      '2026-10-25T00:00:00.000Z',
      '2026-04-05T15:00:00+10:00',
      '2026-11-24T14:00:00+00:00',
    ]) {
      const start = DateTime.fromISO(time, { setZone: true });
      const expected = Array.from({ length: 8 }, (_, i) =>
        start
          .plus({ minutes: 30 * i })
          .setZone(zone)
          .toFormat("yyyy-MM-dd'T'HH:mm"),
      );
      expect(runSlots(time, 8, zone)).toEqual(expected);
      expect(todayIn(zone, new Date(time))).toBe(
        DateTime.fromJSDate(new Date(time), { zone }).toISODate(),
      );
    }
  });

  it.each(ZONES)('writes instants on the clock of %s and of the device', (zone) => {
    for (const iso of [
      '2026-03-29T00:45:00Z',
      '2026-10-25T01:15:00.000Z',
      '2026-04-05T15:00:00+10:00',
      '2026-11-24T12:05:09.123+00:00',
      '2024-02-29T23:59:00-08:00',
    ]) {
      expect(formatInstantShort(iso, zone)).toBe(
        DateTime.fromISO(iso).setZone(zone).toFormat('yyyy-MM-dd h:mm a'),
      );
      expect(formatInstantTime(iso)).toBe(DateTime.fromISO(iso).toFormat('h:mm a'));
    }
  });

  it.each(ZONES)('names the zone of a slot in %s', (zone) => {
    for (const slot of SLOTS) {
      const name = DateTime.fromISO(slot, { zone }).toFormat('ZZZZ');
      expect(formatVenueZone(slot, 'Paddock', zone)).toBe(`Paddock · ${name} (${zone})`);
    }
  });

  it('moves dates by months, clamped at month ends', () => {
    for (const iso of ['2026-01-31', '2024-01-31', '2026-03-31', '2026-12-15', '2026-05-01'])
      for (const months of [-13, -1, 0, 1, 2, 12]) {
        expect(addMonths(iso, months)).toBe(DateTime.fromISO(iso).plus({ months }).toISODate());
      }
  });

  it('writes local dates and full dates as luxon does', () => {
    const date = new Date(2026, 0, 5, 23, 59);
    expect(isoFromDate(date)).toBe(DateTime.fromJSDate(date).toISODate());
    expect(formatIsoDateFull('2026-03-01')).toBe(
      DateTime.fromISO('2026-03-01').toLocaleString(DateTime.DATE_FULL),
    );
  });
});
