import { describe, expect, it } from 'vitest';
import { bookPath, shiftDate, textOn } from './booking-path';

describe('where Book takes a visitor (decision 0123)', () => {
  it('opens the booking page on the chosen seat and time, through signup when signed out', () => {
    const chosen = { seat: 7, slot: '2030-05-04T20:30' };
    expect(bookPath(chosen, true)).toBe('/reservations/7?slot=2030-05-04T20%3A30');
    expect(bookPath(chosen, false)).toBe(
      `/signup?redirect=${encodeURIComponent('/reservations/7?slot=2030-05-04T20%3A30')}`,
    );
  });

  it('steps days across months and years', () => {
    expect(shiftDate('2030-12-31', 1)).toBe('2031-01-01');
    expect(shiftDate('2032-03-01', -1)).toBe('2032-02-29');
  });

  it('writes black on light venue colours and white on dark ones', () => {
    expect(textOn('#c62828')).toBe('#ffffff');
    expect(textOn('#ffeb3b')).toBe('#000000');
    expect(textOn('#000000')).toBe('#ffffff');
  });
});
