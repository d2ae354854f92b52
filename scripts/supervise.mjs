// What `npm start` runs the server under: a process that stops unexpectedly is started again,
// later and later while it keeps failing, and the log says so in plain words. A stop asked for
// (SIGINT, SIGTERM, or the server ending cleanly) is passed through and not restarted; a
// configuration the server refuses is not retried at all. Decision 0071.
import { spawn } from 'node:child_process';

/** The server's exit code for a configuration it refuses (EX_CONFIG, sysexits.h): no retry. */
export const EXIT_CONFIG = 78;

/**
 * What the server sends on its IPC channel once it has answered a request
 * (apps/server/src/lib/served-notice.ts): that run worked, so the back-off starts over.
 */
export const SERVED_MESSAGE = 'paddock:served';

/**
 * Runs `command` until it stops on purpose; resolves with the exit code to leave with.
 * `firstDelayMs` doubles per unexpected stop up to `maxDelayMs`, and starts over after a run
 * that served requests (the server says so once, `SERVED_MESSAGE` over IPC) or lasted `stableMs`:
 * a server that worked for a while and then crashed is not made to wait for an old streak of
 * failures (decision 0113). After `maxQuickFailures` stops in a row that each came within `quickMs` of
 * their start, it gives up: a server that cannot start is not started again every few seconds.
 */
export function supervise(command, args, opts = {}) {
  const {
    env = process.env,
    cwd,
    log = (line) => console.error(`[npm start] ${line}`),
    firstDelayMs = 1000,
    maxDelayMs = 30_000,
    stableMs = 60_000,
    quickMs = 10_000,
    maxQuickFailures = 5,
  } = opts;
  return new Promise((resolve) => {
    let child = null;
    let stopping = null;
    let timer = null;
    let delay = firstDelayMs;
    let quickFailures = 0;
    let restarts = 0;

    const onSignal = (signal) => {
      if (stopping) return;
      stopping = signal;
      if (timer) {
        clearTimeout(timer);
        finish(0);
      } else child?.kill(signal);
    };
    const finish = (code) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(code);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    const start = () => {
      timer = null;
      const startedAt = Date.now();
      let served = false;
      // fd 3 is an IPC channel: the only thing read from it is the server's "I served" notice.
      child = spawn(command, args, { env, cwd, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
      child.on('error', (error) => log(`Could not start the server: ${error.message}`));
      child.on('message', (message) => {
        if (message === SERVED_MESSAGE) served = true;
      });
      child.on('exit', (code, signal) => {
        child = null;
        const ranMs = Date.now() - startedAt;
        if (stopping) return finish(code ?? 0);
        if (code === 0) {
          log('The server stopped by itself, cleanly: not starting it again.');
          return finish(0);
        }
        const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
        if (code === EXIT_CONFIG) {
          log(`The server ${how}: its configuration is wrong (see above). Not starting it again.`);
          return finish(code);
        }
        if (served || ranMs >= stableMs) {
          delay = firstDelayMs;
          quickFailures = 0;
        }
        quickFailures = ranMs < quickMs && !served ? quickFailures + 1 : 0;
        if (quickFailures >= maxQuickFailures) {
          log(
            `The server ${how}, and it failed within ${Math.round(quickMs / 1000)} s of starting ${quickFailures} times in a row: giving up. Fix the cause above, then run npm start again.`,
          );
          return finish(code ?? 1);
        }
        restarts += 1;
        log(
          `The server ${how} after ${seconds(ranMs)}. Starting it again in ${seconds(delay)} (restart ${restarts}).`,
        );
        timer = setTimeout(start, delay);
        delay = Math.min(maxDelayMs, delay * 2);
      });
    };
    start();
  });
}

const seconds = (ms) =>
  ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
