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
function compare(a: Standing, b: Standing): number {
  if (a.points !== b.points) return b.points - a.points;
  const n = Math.max(a.positions.length, b.positions.length);
  for (let i = 0; i < n; i++) {
    const diff = (b.positions[i] ?? 0) - (a.positions[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.name.localeCompare(b.name);
}

/**
 * Racers' standings over `rounds` rounds: each round scores by the rules; a racer's worst
 * `drop_worst` rounds (a missed round counts 0) are dropped.
 */
export function racerStandings(finishes: Finish[], rounds: number, rules: PointsRules): Standing[] {
  const byRacer = new Map<string, Finish[]>();
  for (const f of finishes) byRacer.set(f.racer, [...(byRacer.get(f.racer) ?? []), f]);
  const standings: Standing[] = [];
  for (const [racer, list] of byRacer) {
    const perRound = Array.from({ length: rounds }, (_, round) =>
      list.filter((f) => f.round === round).reduce((sum, f) => sum + finishPoints(f, rules), 0),
    );
    const kept = [...perRound]
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
  const teams = new Map<string, Standing[]>();
  for (const r of racers) {
    const team = teamOf.get(r.name)!;
    teams.set(team, [...(teams.get(team) ?? []), r]);
  }
  const standings: Standing[] = [];
  for (const [team, members] of teams) {
    const best = [...members].sort(compare).slice(0, rules.team_best_of);
    standings.push({
      name: team,
      members: members.map((m) => m.name),
      points: best.reduce((sum, m) => sum + m.points, 0),
      positions: countback(
        finishes.filter((f) => teamOf.get(f.racer) === team).map((f) => [f.position]),
      ),
    });
  }
  return standings.sort(compare);
}

/** Ranks with ties sharing a rank only when nothing separates them (equal points and countback). */
export function ranked<T extends Standing>(standings: T[]): (T & { rank: number })[] {
  return standings.map((s, i) => ({ ...s, rank: i + 1 }));
}
