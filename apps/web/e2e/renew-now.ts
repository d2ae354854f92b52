import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server');

/**
 * Makes the customer's club renewal due and runs the renewal pass the server's hourly job
 * runs (apps/server/src/test/renew-now.ts), on the journeys' server database: no route for it.
 */
export async function renewNow(userId: number, publicUrl: string) {
  const dataDir = process.env.PADDOCK_E2E_DATA_DIR;
  if (!dataDir) throw new Error('PADDOCK_E2E_DATA_DIR is set by playwright.config.ts');
  const { stdout } = await promisify(execFile)(
    path.join(SERVER, '../../node_modules/.bin/tsx'),
    ['src/test/renew-now.ts', String(userId)],
    {
      cwd: SERVER,
      env: { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: publicUrl, LOG_LEVEL: 'warn' },
    },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as { charged: number; declined: number };
}
