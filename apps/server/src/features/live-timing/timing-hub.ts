// The live towers this instance computes (decision 0122): one timing model per event whose
// server feed arrives here, written to `live_timings` and announced on the change feed
// (`timing:<event>`), so every instance's streams and read route have it within a second.
import { sql } from 'drizzle-orm';
import type { TimingTower } from '@paddock/contract/live-timing';
import type { Db } from '../../db/client';
import { liveTimings } from '../../db/schema/live-timing';
import { announceAfterCommit, pruneChanges, storeChange } from '../../plugins/changes';
import {
  applyTimingEvent,
  newTimingState,
  towerOf,
  type TimingEvent,
  type TimingState,
} from './timing-model';

/** Changes of the tower are gathered this long before one write (several cars cross together). */
export const TIMING_FLUSH_MS = 100;
/** A clock-only change is written at most this often: screens run the clock on by themselves. */
const CLOCK_ONLY_MS = 10_000;

interface Live {
  eventId: number;
  sim: 'ac' | 'acc';
  state: TimingState;
  /** Something the screens show changed since the last write. */
  dirty: boolean;
  lastWrite: number;
  timer: NodeJS.Timeout | null;
  writing: Promise<void>;
  /** The towers already handed to `onFinal` (by session), so each session's result is once. */
  finals: Set<number>;
  onFinal?: (tower: TimingTower) => Promise<void>;
}

export interface TimingHubOptions {
  flushMs?: number;
  now?: () => Date;
  /** A session's tower turned final (the flag fell and the cars are in, or the sim ended it). */
  onFinal?: (tower: TimingTower) => Promise<void>;
  logError?: (err: unknown, message: string) => void;
}

export class LiveTimingHub {
  private readonly live = new Map<number, Live>();
  private readonly flushMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly options: TimingHubOptions = {},
  ) {
    this.flushMs = options.flushMs ?? TIMING_FLUSH_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** A server's feed for this event starts here; `drivers` are who the entry list seats. */
  open(
    eventId: number,
    sim: 'ac' | 'acc',
    drivers: { car: number; driver: string; team: string; model: string }[],
    /** This feed's final towers (its sessions' results), besides the hub's own `onFinal`. */
    onFinal?: (tower: TimingTower) => Promise<void>,
  ) {
    const state = newTimingState();
    for (const d of drivers) applyTimingEvent(state, { kind: 'driver', ...d });
    this.live.set(eventId, {
      eventId,
      sim,
      state,
      dirty: true,
      lastWrite: 0,
      timer: null,
      writing: Promise.resolve(),
      finals: new Set(),
      onFinal,
    });
    this.schedule(this.live.get(eventId)!);
  }

  /** The feed's events for this event's tower (ignored when no feed of it was opened here). */
  feed(eventId: number, events: TimingEvent[]) {
    const l = this.live.get(eventId);
    if (!l || events.length === 0) return;
    for (const e of events) {
      // A new session replaces the tower: the one it replaces is written first, as it ended.
      if (e.kind === 'session' && l.dirty) this.write(l);
      applyTimingEvent(l.state, e);
      if (e.kind !== 'clock') l.dirty = true;
      // The flag fell and the cars are in: that tower is the result, written at once.
      if (l.state.chequered && (e.kind === 'lap' || e.kind === 'over' || e.kind === 'chequered'))
        if (!l.finals.has(l.state.sessionSeq) && this.towerNow(l).final) this.write(l);
    }
    if (!l.dirty && this.now().getTime() - l.lastWrite >= CLOCK_ONLY_MS) l.dirty = true;
    if (l.dirty) this.schedule(l);
  }

  /** Whether a feed of this event's tower runs on this instance. */
  follows(eventId: number): boolean {
    return this.live.has(eventId);
  }

  /** The tower as computed here now (tests; null when this instance does not follow it). */
  tower(eventId: number): TimingTower | null {
    const l = this.live.get(eventId);
    return l ? this.towerNow(l) : null;
  }

  private towerNow(l: Live) {
    return towerOf(l.state, { event: l.eventId, sim: l.sim, at: this.now() });
  }

  /** Resolves when what was fed so far is written and announced. */
  async settled(eventId: number): Promise<void> {
    const l = this.live.get(eventId);
    if (!l) return;
    if (l.timer) {
      clearTimeout(l.timer);
      l.timer = null;
      this.write(l);
    }
    await l.writing;
  }

  /** The feed ended (the server stopped): the last tower is written and stays as it was. */
  async close(eventId: number): Promise<void> {
    await this.settled(eventId);
    this.live.delete(eventId);
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.live.keys()]) await this.close(id);
  }

  private schedule(l: Live) {
    if (l.timer) return;
    l.timer = setTimeout(() => {
      l.timer = null;
      this.write(l);
    }, this.flushMs);
  }

  /** Writes one at a time per event, in order; a failed write is logged and the next one
   *  carries the whole tower anyway. */
  private write(l: Live) {
    if (!l.dirty) return;
    l.dirty = false;
    if (l.timer) {
      clearTimeout(l.timer);
      l.timer = null;
    }
    const tower = this.towerNow(l);
    l.lastWrite = this.now().getTime();
    const first = tower.final && !l.finals.has(tower.session_seq);
    if (first) l.finals.add(tower.session_seq);
    l.writing = l.writing
      .then(async () => {
        await this.store(tower);
        if (first) {
          await l.onFinal?.(tower);
          await this.options.onFinal?.(tower);
        }
      })
      .catch((err: unknown) => this.options.logError?.(err, 'live timing not written'));
  }

  private async store(tower: TimingTower) {
    const change = await this.db.transaction(async (tx) => {
      await tx
        .insert(liveTimings)
        .values({ eventId: tower.event, tower, updatedAt: sql`now()` })
        .onConflictDoUpdate({
          target: liveTimings.eventId,
          set: { tower, updatedAt: sql`now()` },
        });
      const stored = await storeChange(tx, 'timing', tower.event);
      await pruneChanges(tx);
      return stored;
    });
    await announceAfterCommit(this.db, { changes: [change] });
  }
}
