import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { describeDeadline, freeUntil, isFreeCancellation } from './cancellation-policy';

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toJSDate();
const policy = { windowHours: 24, lateKeepPercent: 100 };

describe('cancellation window', () => {
  it('is free up to and including N hours before the slot, late after', () => {
    const slot = at('2026-07-10T18:00', 'America/Los_Angeles');
    expect(isFreeCancellation(slot, policy, at('2026-07-09T17:59', 'America/Los_Angeles'))).toBe(
      true,
    );
    expect(isFreeCancellation(slot, policy, at('2026-07-09T18:00', 'America/Los_Angeles'))).toBe(
      true,
    );
    expect(isFreeCancellation(slot, policy, at('2026-07-09T18:01', 'America/Los_Angeles'))).toBe(
      false,
    );
  });

  it('counts real hours across the spring-forward night (Los Angeles, 8 March 2026)', () => {
    // 02:00 on 8 March jumps to 03:00: 24 real hours before 10:00 PDT that day is 09:00 PST
    // the day before, not 10:00.
    const slot = at('2026-03-08T10:00', 'America/Los_Angeles');
    const deadline = DateTime.fromJSDate(freeUntil(slot, policy), { zone: 'America/Los_Angeles' });
    expect(deadline.toISO()).toBe('2026-03-07T09:00:00.000-08:00');
    expect(slot.getTime() - deadline.toMillis()).toBe(24 * 3_600_000);
  });

  it('counts real hours across the fall-back night (Los Angeles, 1 November 2026)', () => {
    // 02:00 on 1 November falls back to 01:00: 24 real hours before 10:00 PST is 11:00 PDT.
    const slot = at('2026-11-01T10:00', 'America/Los_Angeles');
    const deadline = DateTime.fromJSDate(freeUntil(slot, policy), { zone: 'America/Los_Angeles' });
    expect(deadline.toISO()).toBe('2026-10-31T11:00:00.000-07:00');
  });

  it('is the same instant whatever the zone; the text reads in the venue zone', () => {
    const slotNy = at('2026-03-29T01:30', 'Europe/London'); // the night the UK springs forward
    const deadline = freeUntil(slotNy, { windowHours: 2, lateKeepPercent: 50 });
    expect(deadline.toISOString()).toBe('2026-03-28T23:30:00.000Z');
    expect(describeDeadline(slotNy, { windowHours: 2, lateKeepPercent: 50 }, 'Europe/London')).toBe(
      'Sat, Mar 28, 2026 at 11:30 PM GMT',
    );
    expect(
      describeDeadline(slotNy, { windowHours: 2, lateKeepPercent: 50 }, 'America/New_York'),
    ).toMatch(/^Sat, Mar 28, 2026 at 7:30 PM EDT$/);
  });

  it('a window of 0 hours is free until the slot starts', () => {
    const slot = at('2026-07-10T18:00', 'Asia/Kolkata');
    expect(isFreeCancellation(slot, { windowHours: 0, lateKeepPercent: 100 }, slot)).toBe(true);
  });
});
