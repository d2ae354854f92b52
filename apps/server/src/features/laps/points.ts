import type { PointsRules } from '../../db/schema/laps';

/** One finish in one round (a race session), as the points rules see it. */
export type Finish = {
  round: number;
  racer: string;
  team: string;
  position: number;
  fastestLap: boolean;
  pole: boolean;
};

export type Standing = {
  name: string;
  members: string[];
  points: number;
  /** Finishes by position (index 0 = wins), for countback. */
  positions: number[];
};

export const DEFAULT_RULES: PointsRules = {
  table: [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
  fastest_lap_bonus: 0,
  pole_bonus: 0,
  drop_worst: 0,
  team_best_of: 2,
};

/** Points of one finish: the table by position, plus bonuses. */
export function finishPoints(finish: Finish, rules: PointsRules): number {
  const base = rules.table[finish.position - 1] ?? 0;
  return (
    base + (finish.fastestLap ? rules.fastest_lap_bonus : 0) + (finish.pole ? rules.pole_bonus : 0)
  );
}

function countback(positions: number[][]): number[] {
  const out: number[] = [];
  for (const list of positions)
    for (const p of list) {
      while (out.length < p) out.push(0);
      out[p - 1] += 1;
    }
  return out;
}

/** Higher points first; equal points go to more wins, then more seconds … (countback). */
function compareResults(a: Standing, b: Standing): number {
  if (a.points !== b.points) return b.points - a.points;
  const n = Math.max(a.positions.length, b.positions.length);
  for (let i = 0; i < n; i++) {
    const diff = (b.positions[i] ?? 0) - (a.positions[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The results' order; a tie nothing separates is listed by name (it still shares its rank). */
function compare(a: Standing, b: Standing): number {
  return compareResults(a, b) || a.name.localeCompare(b.name);
}

/**
 * Racers' standings over `rounds` rounds: each round scores by the rules; a racer's worst
 * `drop_worst` rounds (a missed round counts 0) are dropped.
 */
export function racerStandings(finishes: Finish[], rounds: number, rules: PointsRules): Standing[] {
  // Grouped once (a season's results by racer, then by round), not filtered per racer and round:
  // a chain's board has a thousand racers over a hundred rounds (issue 33).
  const byRacer = groupBy(finishes, (f) => f.racer);
  const standings: Standing[] = [];
  for (const [racer, list] of byRacer) {
    // Only the rounds the racer scored in: a missed round counts 0, and points are never
    // negative (the rules' contract), so the dropped worst rounds are missed ones first.
    const perRound = new Map<number, number>();
    for (const f of list)
      if (f.round < rounds)
        perRound.set(f.round, (perRound.get(f.round) ?? 0) + finishPoints(f, rules));
    const kept = [...perRound.values()]
      .sort((a, b) => b - a)
      .slice(0, Math.max(0, rounds - rules.drop_worst));
    standings.push({
      name: racer,
      members: [racer],
      points: kept.reduce((a, b) => a + b, 0),
      positions: countback([list.map((f) => f.position)]),
    });
  }
  return standings.sort(compare);
}

/**
 * Team standings: a team scores the sum of its best `team_best_of` racers; a racer without a
 * team stands as a team of one.
 */
export function teamStandings(finishes: Finish[], rounds: number, rules: PointsRules): Standing[] {
  const racers = racerStandings(finishes, rounds, rules);
  const teamOf = new Map(finishes.map((f) => [f.racer, f.team.trim() || f.racer]));
  const teams = groupBy(racers, (r) => teamOf.get(r.name)!);
  const teamFinishes = groupBy(finishes, (f) => teamOf.get(f.racer)!);
  const standings: Standing[] = [];
  for (const [team, members] of teams) {
    const best = [...members].sort(compare).slice(0, rules.team_best_of);
    standings.push({
      name: team,
      members: members.map((m) => m.name),
      points: best.reduce((sum, m) => sum + m.points, 0),
      positions: countback((teamFinishes.get(team) ?? []).map((f) => [f.position])),
    });
  }
  return standings.sort(compare);
}

/** Items by key, in their order (each group keeps the items' order). */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Ranks of standings in order: ties share a rank only when nothing separates them (equal points
 * and countback), and the next rank skips as many places (1, 2, 2, 4).
 */
export function ranked<T extends Standing>(standings: T[]): (T & { rank: number })[] {
  const out: (T & { rank: number })[] = [];
  standings.forEach((s, i) => {
    const before = out[i - 1];
    const rank = before && compareResults(before, s) === 0 ? before.rank : i + 1;
    out.push({ ...s, rank });
  });
  return out;
}
