// Keeps the session clock fed (issue 42, decision 0120): the rig reads its seat's session with
// its key (GET /api/rig_session) now, whenever its seat's bookings or the venue settings change
// (the change feed, /api/events, read as this rig), and every `pollMs` in any case; a failed read
// leaves the clock on the times it last heard.
import type { RigSession } from '@paddock/contract/rig-session';
import type { SessionClock, SessionReport } from './session-clock';

export interface FollowerOptions {
  server: string;
  key: string;
  clock: SessionClock;
  pollMs?: number;
  log?: (line: string) => void;
}

export class SessionFollower {
  private stopped = true;
  private pollTimer: NodeJS.Timeout | null = null;
  private stream: AbortController | null = null;
  private reading: Promise<void> | null = null;

  constructor(private readonly options: FollowerOptions) {}

  get clock(): SessionClock {
    return this.options.clock;
  }

  private get headers() {
    return { authorization: `Rig ${this.options.key}` };
  }

  private async call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${this.options.server}${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    // A refusal in words (400) is an answer: sending it again would not change it.
    if (res.status >= 500 || res.status === 401) throw new Error(`${path}: ${res.status} ${text}`);
    return res.ok ? (JSON.parse(text) as unknown) : null;
  }

  checkIn = async (reservation: number) => {
    await this.call('POST', '/api/rig_session/start', { reservation });
  };

  report = async (report: SessionReport) => {
    await this.call('POST', '/api/rig_session/report', report);
  };

  /** Reads the seat's session once and hands it to the clock. */
  refresh(): Promise<void> {
    if (this.reading) return this.reading;
    this.reading = (async () => {
      try {
        const session = (await this.call('GET', '/api/rig_session')) as RigSession | null;
        if (session) await this.options.clock.heard(session);
      } catch (e) {
        this.options.log?.(`cannot read the seat's session: ${(e as Error).message}`);
        await this.options.clock.unreachable();
      }
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const poll = async () => {
      await this.refresh();
      if (!this.stopped) this.pollTimer = setTimeout(poll, this.options.pollMs ?? 15_000);
    };
    void poll();
    void this.follow();
  }

  stop() {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.stream?.abort();
    this.options.clock.stop();
  }

  /** The change feed as this rig: any change of its seat's bookings or the settings reads again. */
  private async follow() {
    while (!this.stopped) {
      const controller = new AbortController();
      this.stream = controller;
      try {
        const res = await fetch(`${this.options.server}/api/events?topics=reservations,settings`, {
          headers: { ...this.headers, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) throw new Error(`feed ${res.status}`);
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          const frames = buffer.split('\n\n');
          buffer = frames.pop() ?? '';
          // `hello` on (re)connecting, then each change: read the session again.
          if (frames.some((f) => /^event: (change|hello)$/m.test(f))) void this.refresh();
        }
      } catch {
        /* cut, refused or stopped: below */
      }
      if (this.stopped) return;
      await new Promise((r) => setTimeout(r, this.options.pollMs ?? 15_000));
    }
  }
}
