import { describe, expect, it } from 'vitest';
import { venueTime } from './venue-time';

describe('venueTime', () => {
  it('shows an instant in the venue’s zone and names the zone', () => {
    const la = venueTime('America/Los_Angeles');
    expect(la.dateTime('2026-11-27T00:27:00Z')).toBe('Nov 26, 2026, 4:27 PM PST');
    expect(la.date('2026-11-27T00:27:00Z')).toBe('Nov 26, 2026');
    const london = venueTime('Europe/London');
    expect(london.dateTime('2026-07-01T12:00:00Z')).toBe('Jul 1, 2026, 1:00 PM GMT+1');
  });
});
