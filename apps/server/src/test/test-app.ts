import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import type { Deps } from '../deps';
import '../app-decorations';
import { loadConfig } from '../config';
import { connect } from '../db/client';
import { createMailer } from '../plugins/mail';
import { createPaymentProvider } from '../plugins/payments/create-provider';
import { Tokens } from '../plugins/auth';
import { databaseUrl } from './database-url';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A fresh database cloned from the migrated template, and the app built on it.
 * `env` overrides configuration variables (e.g. STRIPE_SECRET_KEY).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extra: Pick<Deps, 'launcherSockets' | 'webDist' | 'logStream'> = {},
) {
  const adminUrl = inject('dbAdminUrl');
  const template = inject('dbTemplate');
  const name = `${template}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${template}"`);
  await admin.end();

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    // No rig agent build unless a test ships one (not whatever package:rig left in dist/).
    RIG_AGENT_BUILD: path.join(dataDir, 'rig-agent', 'paddock-rig.exe'),
    ...env,
  });
  const database = connect(databaseUrl(adminUrl, name), 5);
  const deps: Deps = {
    config,
    database,
    mailer: createMailer({ from: config.mailFrom, dataDir, db: database.db }),
    payments: await createPaymentProvider(config, database.db),
    tokens: new Tokens('test-secret-test-secret-test-secret-0123', 3600),
    ...extra,
  };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    db: database.db,
    /** Another API instance on the same database (its own pool and change-feed listener). */
    async sibling() {
      const other = connect(database.url, 5);
      const twin = await buildApp({ ...deps, database: other });
      await twin.ready();
      return {
        app: twin,
        async close() {
          await twin.close();
          await other.close();
        },
      };
    },
    async close() {
      await app.close();
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A logError for steps under test: an error they would only log fails the test instead. */
export const failOnError = (error: unknown): never => {
  throw error;
};

/** What a step that sends mail takes (mailer, public URL, logError), from the test app. */
export const mailDeps = (t: TestApp) => ({
  mailer: t.deps.mailer,
  publicUrl: t.deps.config.publicUrl,
  logError: failOnError,
});
