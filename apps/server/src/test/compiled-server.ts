import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { connect, type Database } from '../db/client';
import { Tokens } from '../plugins/auth';
import { databaseUrl } from './database-url';
import { freePort } from './free-port';

// The compiled server (what `npm start` runs) in processes of its own, on a database cloned
// from the harness's template: for tests that signal or kill a real process.

const root = path.resolve(import.meta.dirname, '../../../..');
const serverMain = path.join(root, 'apps/server/dist/main.js');
const flags = JSON.parse(
  fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'),
) as string[];

/** Both the test and every instance sign and check tokens with this. */
export const PROCESS_JWT_SECRET = 'process-test-secret-process-test-secret-0123';

/** Builds apps/server/dist when a source changed (as `npm start` does). */
export function buildServer() {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: 'ignore',
  });
}

export type ServerProcess = {
  proc: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
};

/** A database cloned from the template, its pool and a token signer matching the instances. */
export async function cloneDatabase() {
  const admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  const name = `${inject('dbTemplate')}_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`create database "${name}" template "${inject('dbTemplate')}"`);
  const url = databaseUrl(inject('dbAdminUrl'), name);
  const database: Database = connect(url, 4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-process-'));
  return {
    url,
    database,
    db: database.db,
    dataDir,
    deps: { tokens: new Tokens(PROCESS_JWT_SECRET, 3600) },
    async drop() {
      await database.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the compiled server on `databaseUrl`; resolves once /api/ready answers 200. */
export async function startServer(
  target: { url: string; dataDir: string },
  env: Record<string, string> = {},
  port?: number,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const proc = spawn(process.execPath, [...flags, serverMain], {
    env: {
      ...process.env,
      DATABASE_URL: target.url,
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: target.dataDir,
      JWT_SECRET: PROCESS_JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const url = `http://127.0.0.1:${p}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the server exited: ${output}`);
    try {
      if ((await fetch(`${url}/api/ready`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > end) throw new Error(`the server did not get ready: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, port: p, url, output: () => output, exited };
}
