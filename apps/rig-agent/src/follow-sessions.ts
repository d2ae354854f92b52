// The booked session on this rig (issue 42, decision 0120), put together: the session clock acts
// through the agent's own Start and Exit (the launcher's paths) and reaches Paddock through the
// follower, which feeds it the seat's session.
import type { RigAgent } from './agent';
import { realClock, SessionClock, type Clock } from './session-clock';
import { SessionFollower } from './session-follower';

export function followSessions(
  agent: RigAgent,
  options: {
    server: string;
    key: string;
    log: (line: string) => void;
    /** A warning for the driver (default: the log). */
    warn?: (text: string, level: 'first' | 'last') => void;
    clock?: Clock;
    pollMs?: number;
  },
): SessionFollower {
  const { log } = options;
  const follower: SessionFollower = new SessionFollower({
    server: options.server,
    key: options.key,
    pollMs: options.pollMs,
    log,
    clock: new SessionClock(
      {
        startSim: () => agent.signal('SESSION_START'),
        endSim: () => agent.signal('SESSION_EXIT'),
        simRunning: () => agent.state === 'launched',
        checkIn: (id) => follower.checkIn(id),
        report: (report) => follower.report(report),
        warn: options.warn ?? ((text) => log(`warning: ${text}`)),
        log,
      },
      options.clock ?? realClock,
    ),
  });
  return follower;
}
