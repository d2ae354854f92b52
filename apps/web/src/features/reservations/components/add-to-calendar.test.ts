import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Reservation } from '@paddock/contract/reservations';
import { googleCalendarUrl } from './add-to-calendar';

const booking = (time: string, duration_minutes: number) =>
  ({ id: 7, time, duration_minutes, calendar_name: 'Rig 1' }) as Reservation;

// The Google link's dates left luxon for Date (decision 0064); luxon is the reference.
describe('googleCalendarUrl', () => {
  it.each([
    ['2026-11-24T14:00:00+00:00', 30],
    ['2026-03-29T00:30:00.000Z', 90],
    ['2026-04-05T02:30:00+10:30', 60],
    ['2026-12-31T23:30:00-08:00', 60],
  ])('writes %s for %i minutes in UTC basic form', (time, minutes) => {
    const start = DateTime.fromISO(time).toUTC();
    const end = start.plus({ minutes });
    const f = "yyyyLLdd'T'HHmmss'Z'";
    const url = new URL(
      googleCalendarUrl(booking(time, minutes), { name: 'Brighton', address: '1 Way' }),
    );
    expect(url.searchParams.get('dates')).toBe(`${start.toFormat(f)}/${end.toFormat(f)}`);
    expect(url.searchParams.get('text')).toBe('Rig 1 at Brighton');
    expect(url.searchParams.get('location')).toBe('Brighton, 1 Way');
  });
});
