/**
 * The steps of a checkout at which the crash test kills the server (decision 0072): the claim
 * committed with nothing charged; the charge recorded with the checkout not finished; the finish
 * committed with no answer sent.
 */
export const CHECKOUT_CRASH_POINTS = ['claimed', 'charged', 'finished'] as const;
/**
 * Those, and a booking paid with club credit committed with its confirmation owed, nothing sent
 * and no answer (decision 0102).
 */
export const CRASH_POINTS = [...CHECKOUT_CRASH_POINTS, 'booked'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/**
 * Dies at once, as a power cut or an OOM kill would (no `finally`, no graceful close), when the
 * configured step is reached. Configured only by the crash test (CHECKOUT_CRASH_AT).
 */
export function crashAt(configured: CrashPoint | undefined, point: CrashPoint): void {
  if (configured === point) process.kill(process.pid, 'SIGKILL');
}
