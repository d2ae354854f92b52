import { describe, expect, it } from 'vitest';
import { startField, startInstant } from './party-start';

describe('a party’s start on the venue’s clock', () => {
  it('is the instant of the venue’s wall time, whatever the browser’s zone', () => {
    expect(startInstant('2026-11-27T19:00', 'America/Los_Angeles')).toBe(
      '2026-11-28T03:00:00.000Z',
    );
    expect(startInstant('2026-07-01T19:00', 'Europe/Berlin')).toBe('2026-07-01T17:00:00.000Z');
    expect(startInstant('', 'Europe/Berlin')).toBeNull();
  });

  it('goes back into the field as the same wall time', () => {
    expect(startField('2026-11-28T03:00:00.000Z', 'America/Los_Angeles')).toBe('2026-11-27T19:00');
    expect(startField(null, 'America/Los_Angeles')).toBe('');
  });
});
