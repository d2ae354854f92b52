// `Deps` lives here rather than in app.ts: features take their dependencies from this module, and
// app.ts (which imports every feature) only assembles them, so no feature imports the file that
// imports it (decision 0086). What this module imports must never import it back.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './plugins/mail';
import type { PaymentProvider } from './plugins/payments/provider';
import type { Tokens } from './plugins/auth';
import type { SocketOptions } from './features/races/socket-options';

/** Everything a feature may use; built once in main.ts (or per test file). */
export type Deps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  payments: PaymentProvider;
  tokens: Tokens;
  /** Built web app to serve; omitted in API tests. */
  webDist?: string;
  /** Where log lines go (tests read them); stdout when unset. */
  logStream?: { write: (line: string) => void };
  /** Launcher socket timing (tests and the bench shorten the ping). */
  launcherSockets?: Partial<SocketOptions>;
};

export type App = FastifyInstance;
