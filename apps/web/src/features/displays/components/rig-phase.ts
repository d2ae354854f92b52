import type { RigSession, RigSessionBooking } from '@paddock/contract/rig-session';

/** What the rig screen shows at an instant (decision 0120). */
export type RigPhase =
  | { kind: 'out_of_service' }
  | { kind: 'idle'; next: RigSessionBooking | null }
  | {
      kind: 'session';
      booking: RigSessionBooking;
      /** Whole minutes left, rounded up (0 at the end). */
      minutesLeft: number;
      /** Waiting for the customer's Start (start mode 'customer'). */
      awaitingStart: boolean;
      warning: 'none' | 'first' | 'last';
      /** Someone else has the slot right after the session (said from the first warning on). */
      nextTaken: boolean;
    }
  | { kind: 'ended'; booking: RigSessionBooking };

/** How long the screen says goodbye after a session ended. */
export const ENDED_SHOWN_MS = 60_000;

/**
 * The phase at `nowMs` (server time: the screen's clock corrected by the answer's `now`).
 * `lastSeen` is the session the screen showed before: after its end it says goodbye a minute.
 */
export function rigPhase(
  session: RigSession,
  nowMs: number,
  lastSeen: RigSessionBooking | null,
): RigPhase {
  if (session.out_of_service) return { kind: 'out_of_service' };
  const current =
    session.current && Date.parse(session.current.ends) > nowMs ? session.current : null;
  if (!current) {
    if (
      lastSeen &&
      nowMs >= Date.parse(lastSeen.ends) &&
      nowMs - Date.parse(lastSeen.ends) < ENDED_SHOWN_MS
    )
      return { kind: 'ended', booking: lastSeen };
    const next = session.next && Date.parse(session.next.ends) > nowMs ? session.next : null;
    return { kind: 'idle', next };
  }
  const minutesLeft = Math.max(0, Math.ceil((Date.parse(current.ends) - nowMs) / 60_000));
  const warning =
    minutesLeft <= session.last_warning_minutes
      ? 'last'
      : minutesLeft <= session.first_warning_minutes
        ? 'first'
        : 'none';
  const nextTaken = !!session.next && session.next.starts === current.ends;
  return {
    kind: 'session',
    booking: current,
    minutesLeft,
    awaitingStart: session.start_mode === 'customer' && !current.checked_in,
    warning,
    nextTaken,
  };
}
