import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULES,
  finishPoints,
  racerStandings,
  ranked,
  teamStandings,
  type Finish,
} from './points';

const f = (
  round: number,
  racer: string,
  position: number,
  extra: Partial<Finish> = {},
): Finish => ({
  round,
  racer,
  team: '',
  position,
  fastestLap: false,
  pole: false,
  ...extra,
});

describe('points rules', () => {
  it('scores 25-18-15-12-10-8-6-4-2-1 and nothing past tenth', () => {
    expect([1, 2, 3, 10, 11].map((p) => finishPoints(f(0, 'a', p), DEFAULT_RULES))).toEqual([
      25, 18, 15, 1, 0,
    ]);
  });

  it('adds fastest-lap and pole bonuses', () => {
    const rules = { ...DEFAULT_RULES, fastest_lap_bonus: 1, pole_bonus: 3 };
    expect(finishPoints(f(0, 'a', 2, { fastestLap: true, pole: true }), rules)).toBe(22);
  });

  it('drops each racer’s worst rounds, a missed round counting 0', () => {
    const finishes = [
      f(0, 'ann', 1),
      f(1, 'ann', 10),
      f(2, 'ann', 2),
      f(0, 'bob', 2),
      f(1, 'bob', 1),
    ];
    const rules = { ...DEFAULT_RULES, drop_worst: 1 };
    const standings = racerStandings(finishes, 3, rules);
    // ann: 25 + 18 (drops the 1); bob: 18 + 25 (drops the missed round)
    expect(standings.map((s) => [s.name, s.points])).toEqual([
      ['ann', 43],
      ['bob', 43],
    ]);
  });

  it('breaks ties by countback: more wins, then more seconds', () => {
    const finishes = [f(0, 'ann', 1), f(1, 'ann', 3), f(0, 'bob', 2), f(1, 'bob', 2)];
    // ann 25+15 = 40, bob 18+18 = 36: no tie; make one with custom table
    const rules = { ...DEFAULT_RULES, table: [10, 5, 5] };
    const standings = racerStandings(finishes, 2, rules);
    expect(standings.map((s) => [s.name, s.points])).toEqual([
      ['ann', 15],
      ['bob', 10],
    ]);
    const tie = racerStandings([f(0, 'cy', 2), f(1, 'cy', 2), f(0, 'di', 1), f(1, 'di', 3)], 2, {
      ...DEFAULT_RULES,
      table: [10, 5, 0],
    });
    expect(tie.map((s) => s.name)).toEqual(['di', 'cy']);
    expect(tie[0].points).toBe(tie[1].points);
  });

  it('shares a rank only for a tie nothing separates, and skips the places it takes', () => {
    const finishes = [
      // ann and bob: one win and one second each (equal points, equal countback)
      f(0, 'bob', 1),
      f(1, 'bob', 2),
      f(0, 'ann', 2),
      f(1, 'ann', 1),
      // cy: equal points with di, separated by countback (a win against none)
      f(2, 'cy', 1),
      f(3, 'di', 2),
      f(4, 'di', 3),
    ];
    const rules = { ...DEFAULT_RULES, table: [10, 5, 5] };
    const standings = ranked(racerStandings(finishes, 5, rules));
    expect(standings.map((s) => [s.rank, s.name, s.points])).toEqual([
      [1, 'ann', 15],
      [1, 'bob', 15],
      [3, 'cy', 10],
      [4, 'di', 10],
    ]);
  });

  it('scores a team by its best K members', () => {
    const finishes = [
      f(0, 'ann', 1, { team: 'Red' }),
      f(0, 'bob', 2, { team: 'Red' }),
      f(0, 'cy', 3, { team: 'Red' }),
      f(0, 'di', 4, { team: 'Blue' }),
      f(0, 'ed', 5),
    ];
    const standings = teamStandings(finishes, 1, { ...DEFAULT_RULES, team_best_of: 2 });
    expect(standings.map((s) => [s.name, s.points, s.members.length])).toEqual([
      ['Red', 43, 3],
      ['Blue', 12, 1],
      ['ed', 10, 1],
    ]);
  });
});
