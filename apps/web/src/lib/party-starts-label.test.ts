import { describe, expect, it } from 'vitest';
import { startsLabel } from './party-starts-label';

describe('a waiting party’s start, in words', () => {
  it('says the day when it is not today, and the zone', () => {
    expect(startsLabel({ starts_at: '2030-11-28T03:00:00.000Z' }, 'America/Los_Angeles')).toBe(
      'Starts Wed, Nov 27, 7:00 PM PST',
    );
    expect(startsLabel({ starts_at: null }, 'America/Los_Angeles')).toBe('');
  });
});
