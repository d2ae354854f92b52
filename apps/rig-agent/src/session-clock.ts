// The booked session on this rig (issue 42, decision 0120): from the seat's current and next
// booking as Paddock last described them, the agent starts the sim (by the venue's start mode),
// warns before the end and ends the sim at the booked end, on its own clock: offline it keeps the
// times it last heard and reports what it did once Paddock answers again.
import type { RigSession, RigSessionBooking } from '@paddock/contract/rig-session';

/** Time and timers, replaceable in tests. */
export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export type SessionEvent = 'started' | 'warned' | 'ended';
export type SessionReport = {
  reservation: number;
  event: SessionEvent;
  at: string;
  offline: boolean;
};

/** What the clock does on the rig: the launcher's Start and Exit paths, and Paddock's calls. */
export interface SessionActions {
  startSim(): Promise<void>;
  endSim(): Promise<void>;
  simRunning(): boolean;
  /** POST /api/rig_session/start: throws when Paddock cannot be reached. */
  checkIn(reservation: number): Promise<void>;
  /** POST /api/rig_session/report: throws when Paddock cannot be reached. */
  report(report: SessionReport): Promise<void>;
  /** A warning for the driver (the rig screen shows its own; this is the agent's log, chat…). */
  warn(text: string, level: 'first' | 'last'): void;
  log(line: string): void;
}

const MINUTE = 60_000;

export class SessionClock {
  /** The seat as Paddock last described it. */
  session: RigSession | null = null;
  /** Whether the last call to Paddock answered. */
  online = true;
  /** The session this rig is running (the sim started for it, or it was seen running). */
  active: RigSessionBooking | null = null;
  /** Reports Paddock has not had yet, oldest first. */
  readonly pending: SessionReport[] = [];
  private offset = 0;
  private timer: unknown = null;
  private readonly done = new Set<string>();
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly actions: SessionActions,
    private readonly clock: Clock = realClock,
    /** Count on Paddock's clock (corrected at each answer); off in tests that move their own. */
    private readonly followServerClock = clock === realClock,
  ) {}

  /** Paddock's clock (this PC's, corrected by the last answer). */
  now(): number {
    return this.clock.now() + this.offset;
  }

  /** A fresh answer from Paddock: kept, and acted on. */
  heard(session: RigSession): Promise<void> {
    this.session = session;
    if (this.followServerClock) this.offset = Date.parse(session.now) - this.clock.now();
    this.online = true;
    return this.step();
  }

  /** Paddock did not answer: the times last heard stay in force. */
  unreachable(): Promise<void> {
    this.online = false;
    return this.step();
  }

  /** Acts on the current time (serialised: one step at a time), then sets the next timer. */
  step(): Promise<void> {
    this.running = this.running
      .then(() => this.act())
      .catch((e) => this.actions.log(`session: ${(e as Error).message}`))
      .finally(() => this.schedule());
    return this.running;
  }

  /** Waits until the steps asked for so far are done (tests, shutdown). */
  idle(): Promise<void> {
    return this.running;
  }

  stop() {
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  /** The booking running at `now` among those last heard. */
  private runningAt(now: number): RigSessionBooking | null {
    const s = this.session;
    if (!s || s.out_of_service) return null;
    return (
      [s.current, s.next].find(
        (b): b is RigSessionBooking =>
          !!b && Date.parse(b.starts) <= now && now < Date.parse(b.ends),
      ) ?? null
    );
  }

  private async act() {
    const now = this.now();
    const s = this.session;
    const current = this.runningAt(now);
    // The end: the session this rig ran is over (its booked end, or gone: moved, cancelled, the
    // seat out of service). An extension or the same customer's next half-hour moved its end.
    if (this.active && (!current || current.reservation !== this.active.reservation)) {
      const ended = this.active;
      this.active = null;
      const early = now < Date.parse(ended.ends);
      if (early && !this.online) {
        // Offline, the times last heard hold: a session does not end early on a silence.
        this.active = ended;
      } else {
        this.actions.log(
          early
            ? 'the session was moved or cancelled: ending the sim'
            : 'booked end: ending the sim',
        );
        if (this.actions.simRunning()) await this.actions.endSim();
        await this.tell({ reservation: ended.reservation, event: 'ended', at: iso(now) });
      }
    }
    if (!current || !s) return this.flush();
    if (this.active?.reservation === current.reservation) this.active = current;

    // The start, by the venue's start mode.
    const startKey = `${current.reservation}:start`;
    if (!this.done.has(startKey)) {
      const go =
        s.start_mode === 'automatic' ||
        (s.start_mode === 'customer' && current.checked_in) ||
        (s.start_mode === 'staff' && this.actions.simRunning());
      if (go) {
        this.done.add(startKey);
        this.active = current;
        if (!this.actions.simRunning()) await this.actions.startSim();
        if (!current.checked_in) await this.checkIn(current.reservation, now);
      }
    }

    // The warnings, once per end (an extension warns again before its own end).
    const ends = Date.parse(current.ends);
    const levels = [
      ['last', s.last_warning_minutes],
      ['first', s.first_warning_minutes],
    ] as const;
    const due = levels.find(([, minutes]) => now >= ends - minutes * MINUTE);
    if (due && this.active) {
      const key = `${current.reservation}:${current.ends}:${due[0]}`;
      if (!this.done.has(key)) {
        this.done.add(key);
        // A later warning stands for the earlier one too.
        if (due[0] === 'last') this.done.add(`${current.reservation}:${current.ends}:first`);
        const left = Math.max(1, Math.ceil((ends - now) / MINUTE));
        const nextTaken = !!s.next && s.next.starts === current.ends;
        this.actions.warn(
          `${left} minute${left === 1 ? '' : 's'} left${nextTaken ? ': the next slot is booked' : ''}`,
          due[0],
        );
        if (!this.online)
          await this.tell({ reservation: current.reservation, event: 'warned', at: iso(now) });
      }
    }
    return this.flush();
  }

  private async checkIn(reservation: number, now: number) {
    try {
      if (!this.online) throw new Error('offline');
      await this.actions.checkIn(reservation);
    } catch {
      this.pending.push({ reservation, event: 'started', at: iso(now), offline: true });
    }
  }

  /** Told now when online; kept for later otherwise. */
  private async tell(report: Omit<SessionReport, 'offline'>) {
    this.pending.push({ ...report, offline: !this.online });
  }

  /** Sends what is pending, in order, while Paddock answers. */
  private async flush() {
    if (!this.online) return;
    while (this.pending.length > 0) {
      try {
        await this.actions.report(this.pending[0]);
      } catch {
        return;
      }
      this.pending.shift();
    }
  }

  /** One timer, to the next instant something is due (a start, a warning, an end). */
  private schedule() {
    this.stop();
    const s = this.session;
    if (!s) return;
    const now = this.now();
    const instants: number[] = [];
    for (const b of [s.current, s.next]) {
      if (!b) continue;
      const ends = Date.parse(b.ends);
      instants.push(
        Date.parse(b.starts),
        ends,
        ends - s.first_warning_minutes * MINUTE,
        ends - s.last_warning_minutes * MINUTE,
      );
    }
    const next = Math.min(...instants.filter((t) => t > now));
    if (!Number.isFinite(next)) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = null;
      void this.step();
    }, next - now);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A clock that moves only when told (tests). */
export class ManualClock implements Clock {
  private timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  constructor(private time: number) {}
  now = () => this.time;
  setTimer = (fn: () => void, ms: number) => {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  };
  clearTimer = (handle: unknown) => void this.timers.delete(handle as number);
  /** Moves to `to`, firing each timer due on the way at its own time. */
  advanceTo(to: number) {
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= to)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].fn();
    }
    this.time = to;
  }
}
