import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { createMailer } from './plugins/mail';
import { createPaymentProvider } from './plugins/payments/create-provider';
import { Tokens } from './plugins/auth';
import { loadOrCreateSecret } from './lib/secret';
import { demoLogins, seedDemoVenue } from './seed/demo';
import { startRenewalJob } from './features/club/renewals';
import { startMoneyRepairJob } from './features/checkout/money-repair';
import { startReminderJob } from './features/reminders/visit-reminders';
import { startInactiveCustomersJob } from './features/my-data/inactive-customers';
import { releaseStaleChallenges } from './features/payment-challenges/release-stale-challenges';
import { finishLeftPayments } from './features/payment-challenges/finish-left-payments';
import { stopReceiptRenderer } from './plugins/receipt-renderer';
import { startNightlyBackups } from './features/backups/nightly-backups';
import { gracefulShutdown } from './lib/graceful-shutdown';
import { noticeFirstServed } from './lib/served-notice';

/** The exit code for a refused configuration (sysexits.h EX_CONFIG; scripts/supervise.mjs). */
const EXIT_CONFIG = 78;
/** After SIGTERM, closing (hooks, the pool) may take this long after the drain's bound. */
const CLOSE_MARGIN_MS = 10_000;

const here = path.dirname(fileURLToPath(import.meta.url));
// START_TIMING=1 prints when each start-up step ended, in ms since the process started (0049).
const step = (name: string) => {
  if (!process.env.START_TIMING) return;
  const cpu = process.cpuUsage();
  const cpuMs = ((cpu.user + cpu.system) / 1000).toFixed(0);
  console.log(`[start] ${performance.now().toFixed(0)} ms (cpu ${cpuMs} ms) ${name}`);
};

async function main() {
  step('modules loaded');
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      // EX_CONFIG: `npm start`'s supervisor does not retry a configuration that cannot work.
      process.exit(EXIT_CONFIG);
    }
    throw e;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  step('database open and migrated');
  const secret = await loadOrCreateSecret(database.db, config.dataDir, config.jwtSecret);
  const deps = {
    config,
    database,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dataDir: config.dataDir,
      db: database.db,
    }),
    payments: await createPaymentProvider(config, database.db),
    tokens: new Tokens(secret, config.jwtTtlSeconds),
    webDist: path.resolve(here, '../../web/dist'),
  };
  step('secret read');
  const seeded = config.seedDemo
    ? await seedDemoVenue(database.db, { randomPasswords: config.demoRandomPasswords })
    : null;
  step('demo seed checked');
  const app = await buildApp(deps);
  noticeFirstServed(app);
  step('app built');
  // Club renewals: every instance runs the job; row locks and charge keys make it charge once.
  const logError = (error: unknown, message: string) => app.log.error({ err: error }, message);
  const renewals = startRenewalJob(
    {
      db: database.db,
      payments: deps.payments,
      mail: { mailer: deps.mailer, publicUrl: config.publicUrl, logError },
    },
    app.log,
  );
  const settleContext = {
    db: database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    publicUrl: config.publicUrl,
    logError,
  };
  // Checkouts a crash left between claim and finish (decision 0072): at start and on a timer.
  const moneyRepair = startMoneyRepairJob(
    {
      db: database.db,
      payments: deps.payments,
      receipts: app.receipts,
      logError,
      publicUrl: config.publicUrl,
      mailer: deps.mailer,
    },
    {
      ...config.moneyRepair,
      // Purchases and enrolments a crash left, then challenges left unanswered (decision 0100).
      alsoEachPass: async () => {
        await finishLeftPayments(settleContext, { afterMs: config.moneyRepair.afterMs });
        await releaseStaleChallenges(settleContext);
      },
    },
  );

  // An e-mail before each visit, once per visit across instances (decision 0119).
  const reminders = startReminderJob({
    db: database.db,
    mailer: deps.mailer,
    publicUrl: config.publicUrl,
    mailFrom: config.mailFrom,
    logError,
  });

  // Customers inactive for the venue's years are anonymised, one pass across instances (0124).
  const inactive = startInactiveCustomersJob({
    db: database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    publicUrl: config.publicUrl,
    logError,
  });

  // The embedded default backs itself up every night; a DATABASE_URL server has its own tools.
  const nightly = config.databaseUrl
    ? null
    : startNightlyBackups(app.backups, database.db, app.log);

  let closing = false;
  // Graceful (decision 0080): not ready, no new connections, requests in flight finish within
  // SHUTDOWN_TIMEOUT_SECONDS, event streams and launcher sockets told to reconnect, then exit 0.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const bound = config.shutdownTimeoutMs;
    app.log.info(`${signal}: shutting down (requests in flight get ${bound} ms)`);
    // Whatever hangs after the connections are gone (a mail server, an AC server) cannot keep
    // the process: it ends CLOSE_MARGIN_MS after the bound regardless. The margin is generous:
    // closing finishes the confirmations being sent, which on a loaded machine takes seconds.
    setTimeout(() => {
      console.error(`Shutdown took longer than ${bound + CLOSE_MARGIN_MS} ms: exiting anyway.`);
      process.exit(1);
    }, bound + CLOSE_MARGIN_MS).unref();
    renewals.stop();
    nightly?.stop();
    moneyRepair.stop();
    reminders.stop();
    inactive.stop();
    await gracefulShutdown(app, {
      timeoutMs: bound,
      idleWaitMs: config.shutdownIdleWaitMs,
    }).catch((err: unknown) => app.log.error({ err }, 'graceful shutdown failed'));
    await stopReceiptRenderer().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  step('listening');
  // Random passwords are shown once, when made; the well-known ones at every start, checked
  // (argon2, slow) once the server answers.
  const logins =
    seeded?.logins ??
    (config.seedDemo && !config.demoRandomPasswords ? await demoLogins(database.db) : []);
  const url = config.publicUrl;
  const where = config.databaseUrl
    ? 'PostgreSQL at DATABASE_URL'
    : `embedded PostgreSQL in ${config.dataDir}/pg`;
  console.log(`\nPaddock is running on ${url}  (database: ${where})`);
  console.log(`API docs: ${url}/api/docs`);
  if (logins.length > 0) {
    console.log('\nDemo logins (username / password):');
    for (const login of logins)
      console.log(`  ${login.role.padEnd(10)} ${login.username} / ${login.password}`);
  }
  console.log('');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
