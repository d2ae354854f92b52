import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { createUser } from '../test/factories';
import { databaseUrl } from '../test/database-url';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let t: TestApp;
let dataDir: string;
let empty: string;
beforeAll(async () => {
  t = await createTestApp();
  await createUser(t, { email: 'cli@example.com' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-cli-'));
  empty = `paddock_cli_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  await admin.query(`create database "${empty}"`);
  await admin.end();
});
afterAll(async () => {
  await t.close();
  const admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  await admin.query(`drop database if exists "${empty}" with (force)`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run <script> -- args` as npm runs it: from the root, INIT_CWD where it was typed. */
const npmRun = (script: 'backup' | 'restore', env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['scripts/ops.mjs', script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: 120_000,
  }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );

it('npm run backup prints the file last; npm run restore -- FILE loads it, once', async () => {
  const backup = await npmRun('backup', {
    DATABASE_URL: t.deps.database.url,
    DATA_DIR: dataDir,
  });
  expect(backup.code).toBe(0);
  const last = backup.stdout.trim().split('\n').at(-1)!;
  expect(path.dirname(last)).toBe(path.join(dataDir, 'backups'));
  expect(fs.existsSync(last)).toBe(true);

  // A path relative to where the command was typed.
  const target = databaseUrl(inject('dbAdminUrl'), empty);
  const env = { DATABASE_URL: target, DATA_DIR: dataDir, INIT_CWD: dataDir };
  const relative = path.relative(dataDir, last);
  const restored = await npmRun('restore', env, relative);
  expect(restored.code).toBe(0);
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  const { rows } = await client.query(`select email from users where email = 'cli@example.com'`);
  await client.end();
  expect(rows).toHaveLength(1);

  const again = await npmRun('restore', env, relative);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/The database is not empty .*: restore into an empty database/);
}, 180_000);
