import { CLUB_MAX_SESSIONS } from '@paddock/contract/club';
import type { VenueConfig } from '@paddock/contract/venue';

type ClubSettings = Pick<VenueConfig, 'club_first_race_cents' | 'club_min_sessions'>;

/**
 * The fewest sessions per month a plan may have (staff spec §5): 1 when a first-race price is
 * configured, otherwise the configured minimum (default 4).
 */
export function minimumSessions(config: ClubSettings): number {
  return config.club_first_race_cents > 0 ? 1 : Math.max(1, config.club_min_sessions);
}

/**
 * A sessions count the plan can have: whole, from the minimum to 100. Zero, empty or
 * unreadable input snaps back to the minimum.
 */
export function normalizeSessions(value: number, min: number): number {
  if (!Number.isFinite(value) || value <= 0) return min;
  return Math.min(CLUB_MAX_SESSIONS, Math.max(min, Math.trunc(value)));
}

/** The optional `sessions` query value of /subscription, or the minimum. */
export function initialSessions(query: string | null, min: number): number {
  if (query === null || query.trim() === '') return min;
  return normalizeSessions(Number(query), min);
}
