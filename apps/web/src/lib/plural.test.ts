import { describe, expect, it } from 'vitest';
import { countOf, SIMULATORS, SLOTS } from './plural';

describe('countOf', () => {
  it('says one simulator and two simulators', () => {
    expect(countOf(1, SIMULATORS)).toBe('1 simulator');
    expect(countOf(2, SIMULATORS)).toBe('2 simulators');
    expect(countOf(0, SLOTS)).toBe('0 slots');
  });
});
