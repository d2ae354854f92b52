// The live timing tower of a running race event (issue 44, decision 0122): what the wall, the
// phone page and the read route show. Times are integer milliseconds.
import { z } from 'zod';

export const timingSessionType = z.enum(['PRACTICE', 'QUALIFYING', 'RACE']);
export type TimingSessionType = z.infer<typeof timingSessionType>;

/** A time's colour: the session's best (purple) or the driver's own best (green). */
export const timingMark = z.enum(['session_best', 'personal_best']).nullable();
export type TimingMark = z.infer<typeof timingMark>;

/** A gap: milliseconds behind, or whole laps behind (lapped), or none (the reference car). */
export const timingGap = z
  .object({ ms: z.number().int().nullable(), laps: z.number().int() })
  .nullable();
export type TimingGap = z.infer<typeof timingGap>;

export const timingRow = z.object({
  position: z.number().int(),
  /** The car's number in the event (its seat's order, from 1). */
  number: z.number().int(),
  driver: z.string(),
  team: z.string(),
  car: z.string(),
  laps: z.number().int(),
  /** Race: the time at its last crossing of the line (the sum of its laps); else null. */
  total_ms: z.number().int().nullable(),
  /** Race: to the leader; practice and qualifying: to the session's best lap. */
  gap: timingGap,
  /** Race: to the car ahead; practice and qualifying: to the best lap of the car ahead. */
  interval: timingGap,
  last_lap_ms: z.number().int().nullable(),
  last_lap_mark: timingMark,
  last_lap_invalid: z.boolean(),
  best_lap_ms: z.number().int().nullable(),
  best_lap_mark: timingMark,
  /** The last lap's sectors, where the sim gives them. */
  sectors: z.array(z.object({ ms: z.number().int(), mark: timingMark })),
  status: z.enum(['track', 'pit', 'finished']),
});
export type TimingRow = z.infer<typeof timingRow>;

export const timingTower = z.object({
  event: z.number().int(),
  sim: z.enum(['ac', 'acc']),
  /** Counts the sessions of this run: a new session (or a restart) starts a new tower. */
  session_seq: z.number().int(),
  session: z.object({
    name: z.string(),
    type: timingSessionType,
    /** The session's length in minutes, or null when it runs for laps. */
    minutes: z.number().int().nullable(),
    /** The session's length in laps, or null when it runs for time. */
    laps: z.number().int().nullable(),
    /** Time since the green flag when `at` was written (the clock runs on from there). */
    elapsed_ms: z.number().int(),
    /** Race by laps: laps the leader still has to run. */
    laps_remaining: z.number().int().nullable(),
    /** Race or session by time: what was left when `at` was written. */
    time_remaining_ms: z.number().int().nullable(),
    flag: z.enum(['green', 'chequered']),
  }),
  fastest_lap: z
    .object({
      number: z.number().int(),
      driver: z.string(),
      ms: z.number().int(),
      lap: z.number().int(),
    })
    .nullable(),
  rows: z.array(timingRow),
  /** When the tower was computed (ISO instant). */
  at: z.string(),
  /** The tower stopped at the chequered flag: this is the session's result. */
  final: z.boolean(),
});
export type TimingTower = z.infer<typeof timingTower>;

/** GET /races/events/{id}/timing: the tower, or null while no session of the event is live. */
export const timingAnswer = z.object({ tower: timingTower.nullable() });
export type TimingAnswer = z.infer<typeof timingAnswer>;

/** POST /races/events/{id}/timing/replay: a recorded feed played into the event's tower. */
export const timingReplayRequest = z.object({
  /** The recording's text (`paddock-feed/1`: a header line, then one datagram a line). */
  recording: z.string().min(1).max(2_000_000),
  /** 1 plays in real time, 10 ten times as fast. */
  speed: z.number().min(0.1).max(10_000).default(1),
});
export type TimingReplayRequest = z.infer<typeof timingReplayRequest>;

export const timingReplayAnswer = z.object({
  sim: z.enum(['ac', 'acc']),
  datagrams: z.number().int(),
});
