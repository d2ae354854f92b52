import { describe, expect, it } from 'vitest';
import { applyTimingEvent, newTimingState, towerOf, type TimingEvent } from './timing-model';

const at = new Date('2026-11-28T20:00:00Z');
const meta = { event: 7, sim: 'ac' as const, at };
const lap = (car: number, lapMs: number, invalid = false, sectors: number[] = []): TimingEvent => ({
  kind: 'lap',
  car,
  lapMs,
  sectors,
  invalid,
});

function race(laps: number) {
  const s = newTimingState();
  for (const [car, driver] of ['Ana', 'Ben', 'Cleo'].entries())
    applyTimingEvent(s, { kind: 'driver', car, driver, team: '', model: 'ks_mazda_mx5_cup' });
  applyTimingEvent(s, {
    kind: 'session',
    name: 'Race',
    type: 'RACE',
    minutes: null,
    laps,
    elapsedMs: 0,
  });
  return s;
}

const order = (s: ReturnType<typeof newTimingState>) =>
  towerOf(s, meta).rows.map((r) => [r.driver, r.laps, r.gap, r.interval]);

describe('the race tower, lap by lap', () => {
  it('orders by laps then by who crossed first, with gaps to the leader and the car ahead', () => {
    const s = race(3);
    expect(order(s)).toEqual([
      ['Ana', 0, null, null],
      ['Ben', 0, null, null],
      ['Cleo', 0, null, null],
    ]);
    // Lap 1: Ben 60.0, Ana 60.5, Cleo 61.5 (crossings at those race times).
    applyTimingEvent(s, lap(1, 60_000));
    applyTimingEvent(s, lap(0, 60_500));
    expect(order(s)).toEqual([
      ['Ben', 1, null, null],
      ['Ana', 1, { ms: 500, laps: 0 }, { ms: 500, laps: 0 }],
      ['Cleo', 0, null, null],
    ]);
    applyTimingEvent(s, lap(2, 61_500));
    // Lap 2: Ana 59.0 (total 119.5) passes Ben 60.0 (120.0); Cleo 70.0 (131.5).
    applyTimingEvent(s, lap(0, 59_000));
    applyTimingEvent(s, lap(1, 60_000));
    applyTimingEvent(s, lap(2, 70_000));
    expect(order(s)).toEqual([
      ['Ana', 2, null, null],
      ['Ben', 2, { ms: 500, laps: 0 }, { ms: 500, laps: 0 }],
      ['Cleo', 2, { ms: 12_000, laps: 0 }, { ms: 11_500, laps: 0 }],
    ]);
    const t = towerOf(s, meta);
    expect(t.session.laps_remaining).toBe(1);
    expect(t.fastest_lap).toEqual({ number: 1, driver: 'Ana', ms: 59_000, lap: 2 });
    expect(t.rows.map((r) => [r.last_lap_mark, r.best_lap_mark])).toEqual([
      ['session_best', 'session_best'],
      ['personal_best', null],
      [null, null],
    ]);
  });

  it('counts a lapped car in laps, not time, and finishes every car after the leader', () => {
    const s = race(2);
    applyTimingEvent(s, lap(0, 50_000));
    applyTimingEvent(s, lap(1, 51_000));
    applyTimingEvent(s, lap(0, 50_000)); // Ana: 100.0, takes the flag
    let t = towerOf(s, meta);
    expect(t.session.flag).toBe('chequered');
    expect(t.rows[0]).toMatchObject({ driver: 'Ana', status: 'finished' });
    expect(t.final).toBe(false);
    // Cleo's first lap ends at 110.0: Ana crossed lap 2 at 100.0 before it.
    applyTimingEvent(s, lap(2, 110_000));
    expect(order(s)[2]).toEqual(['Cleo', 1, { ms: null, laps: 1 }, { ms: 59_000, laps: 0 }]);
    // Cleo crossed after the flag: finished a lap down; Ben finishes on his next crossing.
    applyTimingEvent(s, lap(1, 52_000));
    applyTimingEvent(s, lap(2, 60_000));
    t = towerOf(s, meta);
    expect(t.rows.map((r) => [r.driver, r.status, r.laps])).toEqual([
      ['Ana', 'finished', 2],
      ['Ben', 'finished', 2],
      ['Cleo', 'finished', 1],
    ]);
    expect(t.final).toBe(true);
    // A lap after the finish does not count.
    applyTimingEvent(s, lap(0, 40_000));
    expect(towerOf(s, meta).rows[0]!.laps).toBe(2);
  });

  it('ends a timed race on the leader’s first crossing after the time', () => {
    const s = newTimingState();
    applyTimingEvent(s, {
      kind: 'session',
      name: 'Race',
      type: 'RACE',
      minutes: 2,
      laps: null,
      elapsedMs: 0,
    });
    applyTimingEvent(s, lap(0, 70_000));
    expect(towerOf(s, meta).session).toMatchObject({ flag: 'green', time_remaining_ms: 50_000 });
    applyTimingEvent(s, lap(0, 70_000));
    expect(towerOf(s, meta).session).toMatchObject({ flag: 'chequered', time_remaining_ms: 0 });
  });
});

describe('practice and qualifying', () => {
  it('orders by best valid lap, gaps to the best lap, sectors coloured', () => {
    const s = newTimingState();
    applyTimingEvent(s, {
      kind: 'session',
      name: 'Qualifying',
      type: 'QUALIFYING',
      minutes: 10,
      laps: null,
      elapsedMs: 0,
    });
    applyTimingEvent(s, lap(0, 100_000, false, [30_000, 40_000, 30_000]));
    applyTimingEvent(s, lap(1, 99_000, false, [31_000, 38_000, 30_000]));
    applyTimingEvent(s, lap(2, 90_000, true, [30_000, 30_000, 30_000])); // cut: no time
    applyTimingEvent(s, { kind: 'where', car: 2, pit: true });
    const t = towerOf(s, meta);
    expect(t.rows.map((r) => [r.number, r.gap, r.interval, r.status])).toEqual([
      [2, null, null, 'track'],
      [1, { ms: 1000, laps: 0 }, { ms: 1000, laps: 0 }, 'track'],
      [3, null, null, 'pit'],
    ]);
    expect(t.rows[0]!.sectors.map((x) => x.mark)).toEqual([
      'personal_best',
      'session_best',
      'session_best',
    ]);
    expect(t.rows[2]).toMatchObject({ last_lap_invalid: true, best_lap_ms: null });
    expect(t.fastest_lap?.ms).toBe(99_000);
  });

  it('starts afresh on a new session, keeping who drives', () => {
    const s = race(3);
    applyTimingEvent(s, lap(0, 60_000));
    applyTimingEvent(s, {
      kind: 'session',
      name: 'Race',
      type: 'RACE',
      minutes: null,
      laps: 3,
      elapsedMs: 0,
    });
    const t = towerOf(s, meta);
    expect(t.session_seq).toBe(2);
    expect(t.rows.map((r) => [r.driver, r.laps])).toEqual([
      ['Ana', 0],
      ['Ben', 0],
      ['Cleo', 0],
    ]);
  });
});
