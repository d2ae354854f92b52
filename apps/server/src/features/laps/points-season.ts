import type pg from 'pg';
import type { Db } from '../../db/client';
import type { PointsRules } from '../../db/schema/laps';
import { DEFAULT_RULES, ranked, teamStandings, type Finish, type Standing } from './points';

/** A POINTS board's season as ranked: its standings, and each racer's latest finish (its id). */
export type Season = { standings: (Standing & { rank: number })[]; latest: Map<string, number> };

/** A season's ranking and until when it stays so with no new results (epoch ms). */
export type RankedSeason = { season: Season; freshUntil: number };

/**
 * A POINTS board's season for one request: the kept one (StandingsCache) or `compute`'s.
 * `signature` names what it is ranked by (a kept one ranked by another is not used).
 */
export type SeasonLookup = (
  boardId: number,
  signature: string,
  now: Date,
  compute: () => Promise<RankedSeason>,
) => Promise<Season>;

/** What a POINTS board's season is: its sessions' scope (from `start`), its frame and rules. */
export type SeasonOf = Scope & { timeFrameDays: number | null; rules: PointsRules | null };

/**
 * A board's season, ranked by its rules, and until when it stays so with no new results: a
 * rolling frame's oldest session leaves it then (else never).
 */
export async function computeSeason(db: Db, of: SeasonOf): Promise<RankedSeason> {
  const rules = of.rules ?? DEFAULT_RULES;
  const rows = await seasonRows(db, of);
  const round = new Map<number, number>();
  for (const [sessionId, race] of rows)
    if (race && !round.has(sessionId)) round.set(sessionId, round.size);
  const finishes: Finish[] = [];
  const poles = new Set<string>();
  // Each racer as their latest session shows them (its car, the name they raced under): the
  // rows come in session order, so a racer's last row is their latest.
  const latest = new Map<string, number>();
  for (const r of rows) {
    const [sessionId, , resultId, position, userId, other, team, fastest, pole] = r;
    if (resultId === null || position === null) continue;
    const key = userId === null ? other! : String(userId);
    latest.set(key, resultId);
    if (pole) poles.add(key);
    const n = round.get(sessionId);
    if (n !== undefined)
      finishes.push({
        round: n,
        racer: key,
        team: team ?? '',
        position,
        fastestLap: fastest === true,
        pole: false,
      });
  }
  // Pole (P1 in a qualifying) counts once per racer, in their first race of the board.
  const firstRace = new Map<string, Finish>();
  for (const f of finishes) {
    const first = firstRace.get(f.racer);
    if (!first || f.round < first.round) firstRace.set(f.racer, f);
  }
  for (const key of poles) {
    const first = firstRace.get(key);
    if (first) first.pole = true;
  }
  const oldest = rows[0]?.[9];
  return {
    season: { standings: ranked(teamStandings(finishes, round.size, rules)), latest },
    freshUntil:
      of.timeFrameDays === null || oldest === undefined
        ? Number.POSITIVE_INFINITY
        : oldest + of.timeFrameDays * 86_400_000,
  };
}

/** A POINTS board's scope: the conditions its sessions meet (each only when the board sets it). */
type Scope = { track: number | null; sim: string | null; start: Date | null };

/**
 * A POINTS board's sessions with what the ranking needs of their results, in session order, as
 * arrays: session id, is a race, result id, position, user id, the racer's key when no user
 * (GUID, else name), team, fastest lap, pole, the session's import (epoch ms). Its sessions come through the track's index, each
 * one's results through theirs (issue 33); a session without results still counts as a round
 * (the left join leaves it one row of nulls). Raw and in array rows: a chain's season is two
 * thousand rows a call, and drizzle's mapping of them cost 1.6 ms of a 13 ms call (docs/
 * benchmarks.md). Named per shape of the scope, so each is planned once per connection.
 */
async function seasonRows(db: Db, scope: Scope): Promise<SeasonRow[]> {
  const values: unknown[] = [];
  const where: string[] = [];
  const shape = (['track', 'sim', 'start'] as const).map((k) => {
    const value = scope[k];
    if (value === null) return 0;
    values.push(value instanceof Date ? value.toISOString() : value);
    where.push(`${SEASON_COLUMN[k]} $${values.length}`);
    return 1;
  });
  const result = await (db as Db & { $client: pg.Pool }).$client.query<SeasonRow>({
    name: `points_season_${shape.join('')}`,
    text: `select s.id, s.kind = 'RACE', r.id, r.position, r.user_id,
        case when r.user_id is null then coalesce(nullif(r.driver_guid, ''), r.driver_name) end,
        r.team_name, r.fastest_lap, r.pole, extract(epoch from s.imported_at)::float8 * 1000
      from race_sessions s left join race_results r on r.session_id = s.id
      where ${where.join(' and ') || 'true'}
      order by s.imported_at, s.id`,
    values,
    rowMode: 'array',
  });
  return result.rows;
}

const SEASON_COLUMN = { track: 's.track_id =', sim: 's.sim =', start: 's.imported_at >=' };

type SeasonRow = [
  sessionId: number,
  race: boolean,
  resultId: number | null,
  position: number | null,
  userId: number | null,
  otherKey: string | null,
  team: string | null,
  fastestLap: boolean | null,
  pole: boolean | null,
  importedMs: number,
];
