import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { databaseUrl } from './test/database-url';
import { freePort } from './test/free-port';

// Issue 27: `npm start` keeps the server up. scripts/start.mjs runs the compiled server under
// scripts/supervise.mjs; here the same supervisor runs the same compiled server (with the same
// node flags) in a process of its own, as start.mjs does after its builds.

const root = path.resolve(import.meta.dirname, '../../..');
const supervisor = path.join(root, 'scripts/supervise.mjs');
const serverMain = path.join(root, 'apps/server/dist/main.js');
const flags = JSON.parse(
  fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'),
) as string[];

type Run = { proc: ChildProcess; output: () => string; exited: Promise<number | null> };

/** Starts the supervisor on `command args` in a process of its own (options as JSON). */
function superviseInProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: Record<string, number> = {},
): Run {
  const code = `import { supervise } from ${JSON.stringify(supervisor)};
process.exit(await supervise(${JSON.stringify(command)}, ${JSON.stringify(args)}, ${JSON.stringify(options)}));`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
  return { proc, output: () => output, exited };
}

/** The supervisor's child (the server) now, from /proc. */
function childOf(pid: number): number | null {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children ? Number(children.split(' ')[0]) : null;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null> | T | null, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const healthy = async (url: string) => {
  try {
    return (await fetch(`${url}/api/health`)).status === 200 ? true : null;
  } catch {
    return null;
  }
};

let admin: pg.Client;
let name: string;
let dataDir: string;

beforeAll(async () => {
  // What `npm start` builds (only when a source changed).
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
    cwd: root,
    stdio: 'ignore',
  });
  admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  name = `${inject('dbTemplate')}_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`create database "${name}" template "${inject('dbTemplate')}"`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-supervised-'));
}, 180_000);
afterAll(async () => {
  await admin?.query(`drop database if exists "${name}" with (force)`);
  await admin?.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start's supervisor", () => {
  it('starts the server again after it is killed, says so, and passes SIGTERM through', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const run = superviseInProcess(process.execPath, [...flags, serverMain], {
      DATABASE_URL: databaseUrl(inject('dbAdminUrl'), name),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    });
    try {
      await waitFor('the server', () => healthy(url));
      const first = childOf(run.proc.pid!)!;
      process.kill(first, 'SIGKILL');
      await waitFor('a new server', () => {
        const now = childOf(run.proc.pid!);
        return now && now !== first ? now : null;
      });
      await waitFor('the new server to answer', () => healthy(url));
      expect(run.output()).toMatch(
        /The server was killed \(SIGKILL\) after [\d.]+ s\. Starting it again in 1\.0 s \(restart 1\)\./,
      );

      // The second server answered a request: killed a few seconds in, it is started again
      // after 1 s, not after the doubled 2 s of a streak of failures (decision 0113).
      const second = childOf(run.proc.pid!)!;
      process.kill(second, 'SIGKILL');
      await waitFor('a third server', () => {
        const now = childOf(run.proc.pid!);
        return now && now !== second ? now : null;
      });
      await waitFor('the third server to answer', () => healthy(url));
      expect(run.output()).toMatch(/Starting it again in 1\.0 s \(restart 2\)\./);

      run.proc.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      expect(run.output()).not.toMatch(/restart 3/);
      expect(await healthy(url)).toBeNull();
    } finally {
      run.proc.kill('SIGKILL');
    }
  }, 120_000);

  it('does not restart a server whose configuration is wrong', async () => {
    const run = superviseInProcess(process.execPath, [...flags, serverMain], {
      PORT: 'not-a-port',
      DATA_DIR: dataDir,
    });
    expect(await run.exited).toBe(78);
    expect(run.output()).toMatch(/PORT/);
    expect(run.output()).toMatch(
      /its configuration is wrong \(see above\)\. Not starting it again\./,
    );
    expect(run.output()).not.toMatch(/Starting it again/);
  }, 60_000);

  it('gives up on a server that fails at once, again and again, after backing off', async () => {
    const started = Date.now();
    const run = superviseInProcess(
      process.execPath,
      ['-e', 'console.error("boom"); process.exit(3)'],
      {},
      { firstDelayMs: 50, maxQuickFailures: 4 },
    );
    expect(await run.exited).toBe(3);
    // 50 + 100 + 200 ms between the four tries.
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(run.output().match(/boom/g)).toHaveLength(4);
    expect(run.output()).toMatch(/Starting it again in 0\.1 s \(restart 2\)/);
    expect(run.output()).toMatch(/failed within 10 s of starting 4 times in a row: giving up\./);
  }, 60_000);

  it('starts the back-off over after each run that served requests, and only then', async () => {
    // A stand-in server: says it served (as lib/served-notice.ts does) on runs 1 to 3, then fails
    // at once without serving on runs 4 and 5, and stops cleanly on run 6.
    const runs = path.join(dataDir, `runs-${crypto.randomBytes(4).toString('hex')}`);
    const server = `const fs = require('node:fs');
const n = (fs.existsSync(process.env.RUNS) ? Number(fs.readFileSync(process.env.RUNS, 'utf8')) : 0) + 1;
fs.writeFileSync(process.env.RUNS, String(n));
if (n === 6) process.exit(0);
if (n <= 3) process.send('paddock:served');
setTimeout(() => process.exit(3), 20);`;
    const run = superviseInProcess(
      process.execPath,
      ['-e', server],
      { RUNS: runs },
      { firstDelayMs: 100, maxQuickFailures: 4 },
    );
    expect(await run.exited).toBe(0);
    const waits = [...run.output().matchAll(/Starting it again in ([\d.]+) s \(restart (\d)\)/g)];
    expect(waits.map((m) => [m[2], m[1]])).toEqual([
      ['1', '0.1'],
      ['2', '0.1'],
      ['3', '0.1'],
      // Failing without serving: doubling again from there.
      ['4', '0.2'],
      ['5', '0.4'],
    ]);
    expect(run.output()).toMatch(/stopped by itself, cleanly/);
  }, 60_000);
});
