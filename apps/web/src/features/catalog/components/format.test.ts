import { describe, expect, it } from 'vitest';
import { formatDrivingTime } from './format';

describe('formatDrivingTime', () => {
  it('shows hours and minutes', () => {
    expect(formatDrivingTime(0)).toBe('0 min');
    expect(formatDrivingTime(45 * 60 + 59)).toBe('45 min');
    expect(formatDrivingTime(12 * 3600 + 5 * 60)).toBe('12 h 05 min');
  });
});
