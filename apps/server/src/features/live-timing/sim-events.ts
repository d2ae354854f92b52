// The sims' live feeds as the timing model's events (decision 0122). AC: the UDP plugin's
// messages (car ids are the entry list's); ACC: the broadcasting protocol's (car indexes are the
// game's, mapped to our seats by race number through `seatOf`).
import type { AcServerMessage } from '@paddock/ac-protocol/codec';
import { AcSessionType } from '@paddock/ac-protocol/codec';
import {
  ACC_NO_TIME,
  AccSessionPhase,
  AccSessionType,
  type AccInbound,
} from '@paddock/ac-protocol/acc/broadcasting';
import type { TimingSessionType } from '@paddock/contract/live-timing';
import type { TimingEvent } from './timing-model';

function acType(t: number): TimingSessionType {
  return t === AcSessionType.RACE
    ? 'RACE'
    : t === AcSessionType.QUALIFY
      ? 'QUALIFYING'
      : 'PRACTICE';
}

/** One AC plugin message → timing events. */
export function acTimingEvents(m: AcServerMessage): TimingEvent[] {
  switch (m.type) {
    case 'NEW_SESSION':
      return [
        {
          kind: 'session',
          name: m.name,
          type: acType(m.sessionType),
          // acServer: a race by laps has no time; a timed session has no laps.
          minutes: m.timeMinutes > 0 && m.laps === 0 ? m.timeMinutes : null,
          laps: m.laps > 0 ? m.laps : null,
          elapsedMs: Math.max(0, m.elapsedMs),
        },
      ];
    case 'SESSION_INFO':
      return m.sessionIndex === m.currentSessionIndex
        ? [{ kind: 'clock', elapsedMs: Math.max(0, m.elapsedMs) }]
        : [];
    case 'LAP_COMPLETED':
      return [{ kind: 'lap', car: m.carId, lapMs: m.lapTimeMs, sectors: [], invalid: m.cuts > 0 }];
    case 'END_SESSION':
      return [{ kind: 'over' }];
    default:
      return [];
  }
}

function accType(t: number): TimingSessionType {
  return t === AccSessionType.RACE
    ? 'RACE'
    : t === AccSessionType.QUALIFYING || t === AccSessionType.SUPERPOLE
      ? 'QUALIFYING'
      : 'PRACTICE';
}

/** What the ACC translation remembers between messages (per run). */
export interface AccTimingMemory {
  sessionIndex: number | null;
  phase: number;
  /** Seat index → laps seen, to turn the car update's lap count into completed laps. */
  laps: Map<number, number>;
  /** ACC's index of the session that ended last (its result's key). */
  ended: number | null;
}

export const newAccTimingMemory = (): AccTimingMemory => ({
  sessionIndex: null,
  phase: 0,
  laps: new Map(),
  ended: null,
});

/**
 * One ACC broadcasting message → timing events. ACC has no session length in the feed: the
 * session's end time gives the minutes. Laps are the car update's count going up by one with the
 * last lap's time and splits; a lap skipped between two updates counts without a time.
 */
export function accTimingEvents(
  m: AccInbound,
  mem: AccTimingMemory,
  seatOf: (carIndex: number) => number | undefined,
): TimingEvent[] {
  if (m.type === 'REALTIME_UPDATE') {
    const out: TimingEvent[] = [];
    if (m.sessionIndex !== mem.sessionIndex) {
      // ACC moves to the next session without a message of its own: the last one is over.
      if (mem.sessionIndex !== null && mem.phase < AccSessionPhase.POST_SESSION) {
        out.push({ kind: 'over' });
        mem.ended = mem.sessionIndex;
      }
      mem.sessionIndex = m.sessionIndex;
      mem.laps = new Map();
      mem.phase = 0;
      out.push({
        kind: 'session',
        // ACC's feed has no session name: its kind stands for it.
        name: { RACE: 'Race', QUALIFYING: 'Qualifying', PRACTICE: 'Practice' }[
          accType(m.sessionType)
        ],
        type: accType(m.sessionType),
        minutes: m.sessionEndTimeMs > 0 ? Math.round(m.sessionEndTimeMs / 60_000) : null,
        laps: null,
        elapsedMs: Math.max(0, m.sessionTimeMs),
      });
    }
    out.push({ kind: 'clock', elapsedMs: Math.max(0, m.sessionTimeMs) });
    if (m.phase >= AccSessionPhase.SESSION_OVER && mem.phase < AccSessionPhase.SESSION_OVER)
      out.push({ kind: 'chequered' });
    if (m.phase >= AccSessionPhase.POST_SESSION && mem.phase < AccSessionPhase.POST_SESSION) {
      out.push({ kind: 'over' });
      mem.ended = m.sessionIndex;
    }
    mem.phase = m.phase;
    return out;
  }
  if (m.type !== 'REALTIME_CAR_UPDATE') return [];
  const seat = seatOf(m.carIndex);
  if (seat === undefined) return [];
  // carLocation: 2 pit lane, 3 pit entry, 4 pit exit.
  const out: TimingEvent[] = [{ kind: 'where', car: seat, pit: m.carLocation >= 2 }];
  const before = mem.laps.get(seat) ?? 0;
  if (m.laps > before) {
    mem.laps.set(seat, m.laps);
    const last = m.lastLap;
    if (m.laps === before + 1 && last.lapTimeMs !== ACC_NO_TIME)
      out.push({
        kind: 'lap',
        car: seat,
        lapMs: last.lapTimeMs,
        sectors: last.splits.filter((s) => s !== ACC_NO_TIME),
        invalid: last.isInvalid,
      });
    if (m.carLocation >= 2) out.push({ kind: 'where', car: seat, pit: true });
  }
  return out;
}
