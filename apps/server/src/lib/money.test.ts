import { describe, expect, it } from 'vitest';
import { allocateCents, divideHalfUp, parseRatePercent, percentOfCents } from './money';

describe('percentOfCents', () => {
  it('rounds exact halves up', () => {
    expect(percentOfCents(1000, '8.875')).toBe(89); // 88.75
    expect(percentOfCents(10, '5')).toBe(1); // 0.5
    expect(percentOfCents(30, '5')).toBe(2); // 1.5
    expect(percentOfCents(50, '1')).toBe(1); // 0.5
  });
  it('rounds below a half down', () => {
    expect(percentOfCents(9, '5')).toBe(0); // 0.45
    expect(percentOfCents(1001, '8.875')).toBe(89); // 88.83875
  });
  it('handles zero and whole rates', () => {
    expect(percentOfCents(0, '9.5')).toBe(0);
    expect(percentOfCents(12345, '0')).toBe(0);
    expect(percentOfCents(4500, '10')).toBe(450);
    expect(percentOfCents(4500, 7.25)).toBe(326); // 326.25
  });
  it('stays exact where floating point would drift', () => {
    // 0.1 × 35 = 3.5000000000000004 in floats; integer math keeps the half a half.
    expect(percentOfCents(35, '10')).toBe(4);
    expect(percentOfCents(1_000_000_005, '10')).toBe(100_000_001); // 100000000.5
  });
  it('refuses non-cents and bad rates', () => {
    expect(() => percentOfCents(1.5, '5')).toThrow(RangeError);
    expect(() => percentOfCents(-1, '5')).toThrow(RangeError);
    expect(() => percentOfCents(100, 'five')).toThrow(RangeError);
  });
});

describe('parseRatePercent / divideHalfUp', () => {
  it('reads numeric text to thousandths', () => {
    expect(parseRatePercent('8.875')).toBe(8875n);
    expect(parseRatePercent('7.5')).toBe(7500n);
    expect(parseRatePercent('10')).toBe(10000n);
    expect(parseRatePercent('0.000')).toBe(0n);
  });
  it('rounds halves up', () => {
    expect(divideHalfUp(5n, 10n)).toBe(1n);
    expect(divideHalfUp(4n, 10n)).toBe(0n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(-15n, 10n)).toBe(-2n);
  });
});

describe('allocateCents', () => {
  it('splits so the parts add up exactly', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(1089, [4500, 4500])).toEqual([545, 544]);
    expect(allocateCents(0, [1, 2])).toEqual([0, 0]);
    expect(allocateCents(7, [0, 0])).toEqual([4, 3]);
    expect(allocateCents(1000, [3000, 1000])).toEqual([750, 250]);
    expect(allocateCents(5, [])).toEqual([]);
  });
});
