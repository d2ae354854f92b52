// The agent's health for the rig map (issue 43, decision 0121): its version, whether the sim
// runs, and the free space of the drive holding the sim's results folder, sent every minute
// (and at once when the sim starts or stops) to POST /api/rigs/health.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentConfig } from './config';

/** The sim's own folder under Documents: results, replays and logs are written under it. */
export function resultsFolder(config: Pick<AgentConfig, 'sim' | 'acCfgDir' | 'accConfigDir'>) {
  return path.dirname(config.sim === 'acc' ? config.accConfigDir : config.acCfgDir);
}

/** Free bytes for this user on the drive of `dir` (its nearest existing folder); null if unknown. */
export async function freeBytes(dir: string): Promise<number | null> {
  let at = dir;
  for (;;) {
    try {
      const s = await fs.promises.statfs(at);
      return s.bavail * s.bsize;
    } catch {
      const up = path.dirname(at);
      if (up === at) return null;
      at = up;
    }
  }
}

export interface HealthOptions {
  server: string;
  key: string;
  version: string;
  folder: string;
  simRunning: () => boolean;
  everyMs?: number;
  log?: (line: string) => void;
}

export class HealthReporter {
  private timer: NodeJS.Timeout | null = null;
  private lastRunning: boolean | null = null;
  private sending: Promise<void> = Promise.resolve();

  constructor(private readonly options: HealthOptions) {}

  start() {
    void this.report();
    // Each second the sim's state is looked at; a report goes out when it changed or a minute passed.
    let since = Date.now();
    this.timer = setInterval(() => {
      const running = this.options.simRunning();
      if (running !== this.lastRunning || Date.now() - since >= (this.options.everyMs ?? 60_000)) {
        since = Date.now();
        void this.report();
      }
    }, 1000);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends one report now (a failure is logged; the next round tries again). */
  report(): Promise<void> {
    this.sending = this.sending.then(async () => {
      const running = this.options.simRunning();
      this.lastRunning = running;
      try {
        const res = await fetch(`${this.options.server}/api/rigs/health`, {
          method: 'POST',
          headers: { authorization: `Rig ${this.options.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            version: this.options.version,
            sim_running: running,
            disk_free_bytes: await freeBytes(this.options.folder),
          }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) this.options.log?.(`health report: Paddock answered ${res.status}`);
      } catch (e) {
        this.options.log?.(`health report not sent: ${(e as Error).message}`);
      }
    });
    return this.sending;
  }
}
