// The sim-neutral timing model of one live session (decision 0122): the sims' feeds become these
// few events (sim-events.ts), and the tower is computed from the state they leave. Pure: no
// clock and no I/O; the race's times are the sums of the cars' lap times, so a recording played
// at any speed gives the same tower.
import type {
  TimingGap,
  TimingMark,
  TimingRow,
  TimingSessionType,
  TimingTower,
} from '@paddock/contract/live-timing';

export type TimingEvent =
  | {
      kind: 'session';
      name: string;
      type: TimingSessionType;
      minutes: number | null;
      laps: number | null;
      elapsedMs: number;
    }
  /** Who drives car `car` (its index in the entry list) and in what. */
  | { kind: 'driver'; car: number; driver: string; team: string; model: string }
  | { kind: 'lap'; car: number; lapMs: number; sectors: number[]; invalid: boolean }
  | { kind: 'where'; car: number; pit: boolean }
  /** The session clock as the sim tells it. */
  | { kind: 'clock'; elapsedMs: number }
  /** The sim shows the chequered flag (ACC's SESSION_OVER phase). */
  | { kind: 'chequered' }
  /** The sim ended the session (AC END_SESSION, ACC's POST_SESSION phase): the tower is final. */
  | { kind: 'over' };

interface CarState {
  car: number;
  driver: string;
  team: string;
  model: string;
  /** Race time at each line crossing (the sum of its lap times so far). */
  crossings: number[];
  lastLapMs: number | null;
  lastLapInvalid: boolean;
  lastSectors: number[];
  bestLapMs: number | null;
  bestSectors: number[];
  pit: boolean;
  finished: boolean;
}

export interface TimingState {
  sessionSeq: number;
  name: string;
  type: TimingSessionType;
  minutes: number | null;
  laps: number | null;
  elapsedMs: number;
  chequered: boolean;
  over: boolean;
  cars: Map<number, CarState>;
  /** The session's best valid lap and who set it (the first to set a time holds it). */
  best: { car: number; ms: number; lap: number } | null;
  bestSectors: number[];
}

export function newTimingState(): TimingState {
  return {
    sessionSeq: 0,
    name: '',
    type: 'PRACTICE',
    minutes: null,
    laps: null,
    elapsedMs: 0,
    chequered: false,
    over: false,
    cars: new Map(),
    best: null,
    bestSectors: [],
  };
}

function carOf(s: TimingState, car: number): CarState {
  let c = s.cars.get(car);
  if (!c) {
    c = {
      car,
      driver: `Car ${car + 1}`,
      team: '',
      model: '',
      crossings: [],
      lastLapMs: null,
      lastLapInvalid: false,
      lastSectors: [],
      bestLapMs: null,
      bestSectors: [],
      pit: false,
      finished: false,
    };
    s.cars.set(car, c);
  }
  return c;
}

const minOf = (a: number | undefined, b: number) => (a === undefined || b < a ? b : a);

/** The leader's finish ends the race: by laps when it has run them all, by time on the first
 *  lap it completes after the time ran out. */
function leaderTakesFlag(s: TimingState, c: CarState): boolean {
  if (s.type !== 'RACE') return false;
  if (s.laps !== null) return c.crossings.length >= s.laps;
  return s.minutes !== null && c.crossings[c.crossings.length - 1]! >= s.minutes * 60_000;
}

/** Applies one event to the state (in place: the feed brings many per second). */
export function applyTimingEvent(s: TimingState, e: TimingEvent): void {
  switch (e.kind) {
    case 'session': {
      const drivers = [...s.cars.values()].map((c) => [c.car, c.driver, c.team, c.model] as const);
      Object.assign(s, newTimingState(), {
        sessionSeq: s.sessionSeq + 1,
        name: e.name,
        type: e.type,
        minutes: e.minutes,
        laps: e.laps,
        elapsedMs: e.elapsedMs,
      });
      // Who drives which car outlives the session.
      for (const [car, driver, team, model] of drivers)
        Object.assign(carOf(s, car), { driver, team, model });
      return;
    }
    case 'driver':
      Object.assign(carOf(s, e.car), { driver: e.driver, team: e.team, model: e.model });
      return;
    case 'where':
      carOf(s, e.car).pit = e.pit;
      return;
    case 'clock':
      s.elapsedMs = Math.max(s.elapsedMs, e.elapsedMs);
      return;
    case 'chequered':
      s.chequered = true;
      return;
    case 'over':
      s.chequered = true;
      s.over = true;
      return;
    case 'lap': {
      const c = carOf(s, e.car);
      if (c.finished || s.over) return;
      const total = (c.crossings[c.crossings.length - 1] ?? 0) + e.lapMs;
      c.crossings.push(total);
      c.lastLapMs = e.lapMs;
      c.lastLapInvalid = e.invalid;
      c.lastSectors = e.sectors;
      c.pit = false;
      if (!e.invalid) {
        if (c.bestLapMs === null || e.lapMs < c.bestLapMs) c.bestLapMs = e.lapMs;
        if (s.best === null || e.lapMs < s.best.ms)
          s.best = { car: c.car, ms: e.lapMs, lap: c.crossings.length };
        e.sectors.forEach((ms, i) => {
          c.bestSectors[i] = minOf(c.bestSectors[i], ms);
          s.bestSectors[i] = minOf(s.bestSectors[i], ms);
        });
      }
      if (s.type === 'RACE') {
        s.elapsedMs = Math.max(s.elapsedMs, total);
        // After the flag every car finishes on its next crossing.
        if (s.chequered || leaderTakesFlag(s, c)) {
          s.chequered = true;
          c.finished = true;
        }
      }
      return;
    }
  }
}

const markOf = (ms: number | null, own: number | null | undefined, best: number | undefined) =>
  ms === null ? null : ms === best ? 'session_best' : ms === own ? 'personal_best' : null;

/** Race order: more laps first, then who crossed the line for that lap first; cars without a
 *  lap keep their entry order (the grid). */
function raceOrder(a: CarState, b: CarState) {
  const la = a.crossings.length;
  const lb = b.crossings.length;
  if (la !== lb) return lb - la;
  if (la === 0) return a.car - b.car;
  return a.crossings[la - 1]! - b.crossings[lb - 1]! || a.car - b.car;
}

/** Practice and qualifying order: best valid lap, then cars without one in entry order. */
function lapOrder(a: CarState, b: CarState) {
  if (a.bestLapMs === null || b.bestLapMs === null)
    return a.bestLapMs === null ? (b.bestLapMs === null ? a.car - b.car : 1) : -1;
  return a.bestLapMs - b.bestLapMs || a.car - b.car;
}

/** How far `car` is behind `ref` on the road, at `car`'s last crossing. */
function raceGap(car: CarState, ref: CarState): TimingGap {
  const n = car.crossings.length;
  if (n === 0) return null;
  const at = car.crossings[n - 1]!;
  // Laps down: the crossings `ref` made after the same lap and no later than `car`'s.
  let laps = 0;
  while (n + laps < ref.crossings.length && ref.crossings[n + laps]! <= at) laps += 1;
  if (laps > 0) return { ms: null, laps };
  const refAt = ref.crossings[n - 1];
  return refAt === undefined ? null : { ms: at - refAt, laps: 0 };
}

const bestGap = (car: CarState, ref: CarState): TimingGap =>
  car.bestLapMs === null || ref.bestLapMs === null
    ? null
    : { ms: car.bestLapMs - ref.bestLapMs, laps: 0 };

/** The tower of the state: rows in order with gaps and marks, the clock, the flag. */
export function towerOf(
  s: TimingState,
  meta: { event: number; sim: 'ac' | 'acc'; at: Date },
): TimingTower {
  const race = s.type === 'RACE';
  const cars = [...s.cars.values()].sort(race ? raceOrder : lapOrder);
  const leader = cars[0];
  const rows: TimingRow[] = cars.map((c, i) => {
    const ahead = cars[i - 1];
    const gap = i === 0 || !leader ? null : race ? raceGap(c, leader) : bestGap(c, leader);
    const interval = !ahead ? null : race ? raceGap(c, ahead) : bestGap(c, ahead);
    const mark = (ms: number | null): TimingMark => markOf(ms, c.bestLapMs, s.best?.ms);
    return {
      position: i + 1,
      number: c.car + 1,
      driver: c.driver,
      team: c.team,
      car: c.model,
      laps: c.crossings.length,
      total_ms: race ? (c.crossings[c.crossings.length - 1] ?? null) : null,
      gap,
      interval,
      last_lap_ms: c.lastLapMs,
      last_lap_mark: c.lastLapInvalid ? null : mark(c.lastLapMs),
      last_lap_invalid: c.lastLapInvalid,
      best_lap_ms: c.bestLapMs,
      // A best lap is its driver's own by definition: only the session's best is marked.
      best_lap_mark: c.bestLapMs !== null && c.bestLapMs === s.best?.ms ? 'session_best' : null,
      sectors: c.lastSectors.map((ms, k) => ({
        ms,
        mark: c.lastLapInvalid ? null : markOf(ms, c.bestSectors[k], s.bestSectors[k]),
      })),
      status: c.finished ? 'finished' : c.pit ? 'pit' : 'track',
    };
  });
  const fastest = s.best ? s.cars.get(s.best.car) : undefined;
  const leaderLaps = leader?.crossings.length ?? 0;
  return {
    event: meta.event,
    sim: meta.sim,
    session_seq: s.sessionSeq,
    session: {
      name: s.name,
      type: s.type,
      minutes: s.minutes,
      laps: s.laps,
      elapsed_ms: Math.round(s.elapsedMs),
      laps_remaining: s.laps === null ? null : Math.max(0, s.laps - leaderLaps),
      time_remaining_ms:
        s.minutes === null ? null : Math.max(0, Math.round(s.minutes * 60_000 - s.elapsedMs)),
      flag: s.chequered ? 'chequered' : 'green',
    },
    fastest_lap:
      s.best && fastest
        ? { number: fastest.car + 1, driver: fastest.driver, ms: s.best.ms, lap: s.best.lap }
        : null,
    rows,
    at: meta.at.toISOString(),
    final: s.over || (race && s.chequered && cars.every((c) => c.finished)),
  };
}
