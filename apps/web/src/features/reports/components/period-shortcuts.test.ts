import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { periodShortcuts } from './period-shortcuts';

describe('periodShortcuts', () => {
  // 01:30 on Monday 2 March in London is still Sunday 1 March in Los Angeles.
  const now = DateTime.fromISO('2026-03-02T01:30:00Z');
  const of = (zone: string) =>
    Object.fromEntries(periodShortcuts(zone, now).map((s) => [s.label, s.period]));

  it('counts days in the location’s zone, not the browser’s', () => {
    expect(of('Europe/London').Today).toEqual({ from: '2026-03-02', to: '2026-03-02' });
    expect(of('America/Los_Angeles').Today).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(of('America/Los_Angeles').Yesterday).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });

  it('weeks run Monday to Sunday; months are whole', () => {
    expect(of('Europe/London')['This Week']).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(of('America/Los_Angeles')['This Week']).toEqual({
      from: '2026-02-23',
      to: '2026-03-01',
    });
    expect(of('Europe/London')['Last Month']).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(of('America/Los_Angeles')['This Month']).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
    });
  });
});
