// The packaged agent updates itself (issue 43, decision 0121): when the server ships another
// version, the agent downloads it between sessions (never while the sim runs), checks its sha256,
// and swaps the files: Windows cannot overwrite a running executable but can rename it, so the
// running one moves aside (`.old`), the new one takes its name, and the agent starts it and
// exits. A download whose hash does not match is thrown away: the old executable stays.
import crypto from 'node:crypto';
import fs from 'node:fs';

export type UpdateResult = 'none' | 'current' | 'busy' | 'updated' | 'bad-hash' | 'failed';

export interface UpdateOptions {
  server: string;
  key: string;
  /** This agent's version. */
  version: string;
  /** The running executable (process.execPath when packaged). */
  exe: string;
  /** True while the sim runs: no update then. */
  simRunning: () => boolean;
  /** Starts the new executable and ends this one. */
  restart: () => void;
  log?: (line: string) => void;
}

type Build = { version: string; sha256: string; size: number; url: string };

/** Removes what an earlier update left (the executable it replaced). */
export function cleanUpAfterUpdate(exe: string) {
  try {
    fs.rmSync(`${exe}.old`, { force: true });
  } catch {
    // Still running (the restart is under way): the next start removes it.
  }
}

/** One look at the server's build; swaps and restarts when there is another version. */
export async function checkForUpdate(options: UpdateOptions): Promise<UpdateResult> {
  const log = options.log ?? (() => {});
  const headers = { authorization: `Rig ${options.key}` };
  try {
    const res = await fetch(`${options.server}/api/rigs/agent`, {
      headers,
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 404) return 'none';
    if (!res.ok) throw new Error(`Paddock answered ${res.status}`);
    const build = (await res.json()) as Build;
    if (build.version === options.version) return 'current';
    if (options.simRunning()) return 'busy';
    log(`downloading version ${build.version} (this is ${options.version})`);
    const download = await fetch(`${options.server}${build.url}`, {
      headers,
      signal: AbortSignal.timeout(600_000),
    });
    if (!download.ok) throw new Error(`the download answered ${download.status}`);
    const bytes = Buffer.from(await download.arrayBuffer());
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== build.sha256) {
      log(`the download's sha256 is ${sha256}, not ${build.sha256}: keeping ${options.version}`);
      return 'bad-hash';
    }
    // A race may have started during the download.
    if (options.simRunning()) return 'busy';
    swap(options.exe, bytes);
    log(`updated to ${build.version}: restarting`);
    options.restart();
    return 'updated';
  } catch (e) {
    log(`update check failed: ${(e as Error).message}`);
    return 'failed';
  }
}

/** The new file beside the running one, the running one renamed aside, the new one in place. */
function swap(exe: string, bytes: Buffer) {
  const next = `${exe}.new`;
  const old = `${exe}.old`;
  fs.writeFileSync(next, bytes, { mode: 0o755 });
  fs.rmSync(old, { force: true });
  fs.renameSync(exe, old);
  try {
    fs.renameSync(next, exe);
  } catch (e) {
    fs.renameSync(old, exe); // the old one back: it keeps running and starting
    throw e;
  }
}
