import type { FastifyInstance } from 'fastify';

/** The message scripts/supervise.mjs (`npm start`) reads as "this run served requests". */
export const SERVED_MESSAGE = 'paddock:served';

/**
 * Under `npm start`'s supervisor (an IPC channel on fd 3), tells it once that this run answered
 * a request, so a later crash is restarted after 1 s again instead of the back-off an earlier
 * streak of failures had reached (decision 0113). Without a channel (tests, other supervisors)
 * it does nothing. Call before the app is ready.
 */
export function noticeFirstServed(app: FastifyInstance): void {
  if (!process.send) return;
  let told = false;
  // onSend, before the answer leaves: the notice is on the channel by the time the client has
  // its answer, so a crash right after that answer still counts as a run that served (with
  // onResponse, a kill just after the answer could beat the notice).
  app.addHook('onSend', async (_request, _reply, payload) => {
    if (!told) {
      told = true;
      // A supervisor gone away must not fail the request: the notice is best effort.
      if (process.connected) process.send?.(SERVED_MESSAGE, undefined, undefined, () => {});
    }
    return payload;
  });
}
