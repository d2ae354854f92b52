// Pairing this PC with a seat (issue 43, decision 0121): without a key, the agent asks Paddock
// for a short code and shows it; staff type it on the seat (Laps & Leaderboards → Rig Keys →
// Pair a Rig); the agent fetches the seat's key with a secret only it holds, and stores it
// readable by this account only (the user's own profile on Windows; mode 0600 elsewhere).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type Started = { code: string; secret: string; expires: string };
type State =
  | { state: 'waiting'; expires: string }
  | { state: 'paired'; key: string; calendar: number; calendar_name: string };

/** Where the key is kept: the user's own profile (LOCALAPPDATA) on Windows, ~/.paddock-rig else. */
export function defaultKeyFile(env: NodeJS.ProcessEnv = process.env) {
  if (process.platform === 'win32') {
    const local =
      env.LOCALAPPDATA ?? path.win32.join(env.USERPROFILE ?? os.homedir(), 'AppData', 'Local');
    return path.win32.join(local, 'Paddock', 'rig-key.txt');
  }
  return path.join(env.HOME ?? os.homedir(), '.paddock-rig', 'key');
}

export function readStoredKey(file: string): string | null {
  try {
    const key = fs.readFileSync(file, 'utf8').trim();
    return key || null;
  } catch {
    return null;
  }
}

/** Writes the key for this account only; on Windows the file also loses inherited access. */
export async function storeKey(file: string, key: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.new`;
  fs.writeFileSync(tmp, `${key}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  if (process.platform === 'win32') {
    const user = process.env.USERNAME;
    if (user)
      await new Promise<void>((resolve) =>
        // Only this user (not other users of the PC); a failure leaves the profile's own rights.
        execFile('icacls', [file, '/inheritance:r', '/grant:r', `${user}:F`], () => resolve()),
      );
  } else fs.chmodSync(file, 0o600);
}

export function forgetKey(file: string) {
  fs.rmSync(file, { force: true });
}

export interface PairOptions {
  server: string;
  hostname?: string;
  /** Shows the code to whoever stands at the PC. */
  show: (code: string, expires: Date) => void;
  log?: (line: string) => void;
  /** How often the agent asks whether staff paired it. */
  pollMs?: number;
  /** The longest wait after a network failure. */
  retryMaxMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post<T>(
  server: string,
  url: string,
  body: object,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Shows codes until staff pair one (a code that expires is replaced); resolves with the key. */
export async function pairThisPc(options: PairOptions): Promise<{ key: string; seat: string }> {
  const log = options.log ?? (() => {});
  const pollMs = options.pollMs ?? 2000;
  let wait = pollMs;
  for (;;) {
    try {
      const started = await post<Started>(options.server, '/api/rig_pairings', {
        hostname: (options.hostname ?? os.hostname()).slice(0, 64),
      });
      if (started.status !== 201) throw new Error(`Paddock answered ${started.status}`);
      wait = pollMs;
      const { code, secret, expires } = started.body;
      options.show(code, new Date(expires));
      for (;;) {
        await sleep(pollMs);
        const answer = await post<State>(options.server, '/api/rig_pairings/key', { secret });
        if (answer.status === 404) break; // expired: a new code
        if (answer.status === 429) continue;
        if (answer.status !== 200) throw new Error(`Paddock answered ${answer.status}`);
        if (answer.body.state === 'paired')
          return { key: answer.body.key, seat: answer.body.calendar_name };
      }
    } catch (e) {
      log(`cannot reach Paddock to pair: ${(e as Error).message}; trying again`);
      await sleep(wait);
      wait = Math.min(wait * 2, options.retryMaxMs ?? 30_000);
    }
  }
}

/** The key: given, stored, or paired now (and stored). */
export async function keyFor(options: PairOptions & { key?: string; keyFile: string }) {
  if (options.key) return options.key;
  const stored = readStoredKey(options.keyFile);
  if (stored) return stored;
  const { key, seat } = await pairThisPc(options);
  await storeKey(options.keyFile, key);
  (options.log ?? (() => {}))(`paired with ${seat}; the key is kept in ${options.keyFile}`);
  return key;
}
