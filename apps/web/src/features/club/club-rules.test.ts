import { describe, expect, it } from 'vitest';
import { initialSessions, minimumSessions, normalizeSessions } from './club-rules';

describe('club session rules (staff §5)', () => {
  it('needs the configured minimum, or 1 with a first-race price', () => {
    expect(minimumSessions({ club_first_race_cents: 0, club_min_sessions: 4 })).toBe(4);
    expect(minimumSessions({ club_first_race_cents: 0, club_min_sessions: 6 })).toBe(6);
    expect(minimumSessions({ club_first_race_cents: 1500, club_min_sessions: 4 })).toBe(1);
  });

  it('snaps 0 and nonsense back to the minimum and caps at 100', () => {
    expect(normalizeSessions(0, 4)).toBe(4);
    expect(normalizeSessions(Number.NaN, 4)).toBe(4);
    expect(normalizeSessions(-3, 4)).toBe(4);
    expect(normalizeSessions(2, 4)).toBe(4);
    expect(normalizeSessions(7.8, 4)).toBe(7);
    expect(normalizeSessions(150, 4)).toBe(100);
    expect(normalizeSessions(1, 1)).toBe(1);
  });

  it('pre-fills from the sessions query', () => {
    expect(initialSessions(null, 4)).toBe(4);
    expect(initialSessions('', 4)).toBe(4);
    expect(initialSessions('8', 4)).toBe(8);
    expect(initialSessions('0', 4)).toBe(4);
    expect(initialSessions('lots', 4)).toBe(4);
    expect(initialSessions('500', 4)).toBe(100);
  });
});
