import { describe, expect, it } from 'vitest';
import { dayOfMonth, localDate, nextCycleDate } from './billing-cycle';

describe('nextCycleDate', () => {
  it('keeps the cycle day across month ends: 31st → February → March 31st', () => {
    expect(nextCycleDate(31, '2027-01-31')).toBe('2027-02-28');
    expect(nextCycleDate(31, '2027-02-28')).toBe('2027-03-31');
    expect(nextCycleDate(31, '2027-03-31')).toBe('2027-04-30');
    expect(nextCycleDate(31, '2027-04-30')).toBe('2027-05-31');
  });

  it('knows leap years', () => {
    expect(nextCycleDate(31, '2028-01-31')).toBe('2028-02-29');
    expect(nextCycleDate(30, '2028-01-30')).toBe('2028-02-29');
    expect(nextCycleDate(29, '2027-01-29')).toBe('2027-02-28');
  });

  it('rolls over the year', () => {
    expect(nextCycleDate(15, '2026-12-15')).toBe('2027-01-15');
  });

  it('counts from the cycle date, not from a late payment', () => {
    // A renewal due on the 31st paid on the 3rd still bills the next cycle on the 28th.
    expect(nextCycleDate(31, '2027-01-31')).toBe('2027-02-28');
  });
});

describe('local dates', () => {
  it('takes the calendar date in the venue zone', () => {
    const instant = new Date('2027-02-01T05:00:00Z'); // still 31 Jan in Los Angeles
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2027-01-31');
    expect(localDate(instant, 'Europe/London')).toBe('2027-02-01');
    expect(dayOfMonth('2027-01-31')).toBe(31);
  });
});
