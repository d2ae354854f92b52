// When the agent runs as the packaged executable: the leftovers of an earlier update go, and the
// server's build is looked at shortly after the start and every five minutes (decision 0121).
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { AgentConfig } from './config';
import { checkForUpdate, cleanUpAfterUpdate } from './self-update';
import { AGENT_VERSION } from './version';

/** The packaged agent runs as its own executable, not as node with a script. */
export const isPackaged = () => !/^node(\.exe)?$/i.test(path.basename(process.execPath));

export function startUpdates(options: {
  config: AgentConfig;
  simRunning: () => boolean;
  log: (line: string) => void;
  shutdown: () => Promise<void>;
}) {
  if (!isPackaged()) return;
  const exe = process.execPath;
  cleanUpAfterUpdate(exe);
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    await checkForUpdate({
      server: options.config.server,
      key: options.config.key,
      version: AGENT_VERSION,
      exe,
      simRunning: options.simRunning,
      log: options.log,
      restart: () => {
        // The new executable with the same arguments, in this session; then this one ends.
        spawn(exe, process.argv.slice(2), { detached: true, stdio: 'ignore' }).unref();
        void options.shutdown();
      },
    });
    looking = false;
  };
  setTimeout(() => void look(), 10_000).unref();
  setInterval(() => void look(), 5 * 60_000).unref();
}
