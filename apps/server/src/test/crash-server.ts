import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CrashPoint } from '../lib/crash-point';
import { freePort } from './free-port';
import type { TestApp } from './test-app';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');
// The test harness's signing secret (test-app.ts): the children accept the factories' tokens.
const JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

export type CrashServer = {
  base: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
};

/**
 * `npm start`'s server on the test database, as a child process (kept in `children` so the
 * test kills what is left); `crashAt` makes it kill itself at that step (decisions 0072, 0102).
 */
export async function startServer(
  t: TestApp,
  opts: { dataDir: string; children: ChildProcess[]; crashAt?: CrashPoint },
): Promise<CrashServer> {
  const port = await freePort();
  const child = spawn(tsx, ['src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: t.deps.database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      DATA_DIR: opts.dataDir,
      MONEY_REPAIR_AFTER_SECONDS: '0',
      CHECKOUT_CRASH_AT: opts.crashAt ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  opts.children.push(child);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('server died');
    try {
      if ((await fetch(`${base}/api/openapi.json`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 600) throw new Error('server did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, exited };
}
