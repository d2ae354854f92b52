// Web delivery figures for `npm run bench` (issue 14, decision 0035): each route's initial
// JavaScript (gzip) from the build's manifest, and Lighthouse (mobile emulation, its default
// throttling) in Debian's Chromium against the built app served by a compiled server instance.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

/** The budget of issue 14. */
export const INITIAL_JS_BUDGET_KIB = 130;

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/**
 * Routes and the modules each one loads on a cold start: the screen, and the module of the
 * queries it opens with where it has one (started beside boot, decision 0061).
 */
const ROUTES: [string, string[]][] = [
  [
    '/reservations/all',
    [
      'src/features/reservations/routes/reservation-locations-screen.tsx',
      'src/features/reservations/routes/reservation-locations-prefetch.ts',
    ],
  ],
  [
    '/leaderboards',
    [
      'src/features/leaderboards/routes/leaderboards-screen.tsx',
      'src/features/leaderboards/routes/leaderboards-prefetch.ts',
    ],
  ],
  ['/display/:id', ['src/features/displays/routes/display-screen.tsx']],
  [
    '/availability/tracks',
    [
      'src/features/catalog/routes/availability-tracks-screen.tsx',
      'src/features/catalog/routes/availability-tracks-prefetch.ts',
    ],
  ],
];

/**
 * JavaScript a route needs before its screen renders: the entry and everything it imports
 * statically, then the route's chunks (screen and prefetch) and their static imports (lazy
 * widgets come later).
 */
export function initialJs(dist: string): { route: string; kib: number }[] {
  const manifestFile = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile)) return [];
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const gzip = (keys: Set<string>) =>
    [...keys].reduce(
      (n, k) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, manifest[k].file))).length,
      0,
    );
  const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  return [
    { route: 'app shell (any route)', kib: gzip(closure(entry)) / 1024 },
    ...ROUTES.map(([route, modules]) => ({
      route,
      kib: gzip(closure(modules, closure(entry))) / 1024,
    })),
  ];
}

export type LighthouseRow = {
  route: string;
  performance: number;
  lcpMs: number;
  cls: number;
  /** Lighthouse's own failure (e.g. NO_FCP on a machine too busy to paint in time), if any. */
  error?: string;
};

/**
 * Lighthouse's mobile run of each path, signed in as `token` (put in the app's storage first,
 * and kept: storage reset is off). Chromium from CHROME_PATH, else Debian's.
 */
export async function lighthouseRuns(
  base: string,
  paths: string[],
  token: string,
): Promise<LighthouseRow[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${base}/favicon.svg`);
    await page.evaluate(`localStorage.setItem('paddock.token', ${JSON.stringify(token)})`);
    await page.close();
    const rows: LighthouseRow[] = [];
    for (const p of paths) {
      // The first run of a page warms the server; the second is the one reported, or a third or
      // fourth when Lighthouse itself failed (it asks to be run again, e.g. NO_NAVSTART on a
      // busy machine).
      let lhr;
      for (let i = 0; i < 2 || (i < 4 && lhr?.runtimeError); i++)
        lhr = (
          await lighthouse(`${base}${p}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            disableStorageReset: true,
          })
        )?.lhr;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${p}`);
      rows.push({
        route: p,
        performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
        lcpMs: lhr.audits['largest-contentful-paint'].numericValue ?? NaN,
        cls: lhr.audits['cumulative-layout-shift'].numericValue ?? NaN,
        error: lhr.runtimeError
          ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
          : undefined,
      });
    }
    return rows;
  } finally {
    chrome.kill();
  }
}

/** Runs `npm start`'s script in `cwd` until the API answers: the seconds it took, and its stop. */
async function timeStart(cwd: string, port: number, dataDir: string) {
  const started = performance.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
  };
  // The embedded PostgreSQL and the demo venue, as a venue's first `npm start` has them.
  for (const name of ['DATABASE_URL', 'SEED_DEMO', 'JWT_SECRET']) delete env[name];
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd,
    env,
    stdio: process.env.BENCH_LOG_LEVEL ? ['ignore', 'inherit', 'inherit'] : 'ignore',
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    // The whole group: start.mjs, the server, and the embedded PostgreSQL under it.
    const exited = new Promise((r) => child.once('exit', r));
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
    await new Promise((r) => setTimeout(r, 1000));
  };
  try {
    const url = `http://127.0.0.1:${port}/api/locations`;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start in ${cwd} ended (${child.exitCode})`);
      try {
        if ((await fetch(url)).status < 500) break;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { seconds: (performance.now() - started) / 1000, stop };
}

const LIGHTHOUSE_PATHS = ['/', '/reservations/all', '/leaderboards', '/availability/tracks'];

/**
 * The web figures: initial JS per route; `npm start` of this install a second time (built and
 * seeded already), with Lighthouse run against that server signed in as the demo customer; and
 * `npm start` of a fresh clone of the committed tree. The clone reuses this install's packages
 * (hard links): npm ci's download is not counted, everything after it is (web build, server
 * build, PostgreSQL's initdb, the migrations, the demo seed).
 */
export async function webBenchmarks(opts: { root: string; tmp: string; port: number }) {
  const { root, tmp, port } = opts;
  const lines: string[] = [];
  const dataDir = path.join(tmp, 'start-data');
  await (await timeStart(root, port, dataDir)).stop();
  const second = await timeStart(root, port, dataDir);
  try {
    for (const r of initialJs(path.join(root, 'apps/web/dist')))
      lines.push(
        `initial JS ${r.route.padEnd(24)} ${r.kib.toFixed(1).padStart(6)} KiB gzip  (${((r.kib / INITIAL_JS_BUDGET_KIB) * 100).toFixed(0)}% of the ${INITIAL_JS_BUDGET_KIB} KiB budget)`,
      );
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice@paddock.local', password: 'paddock-demo' }),
    });
    const { access } = (await login.json()) as { access: string };
    for (const r of await lighthouseRuns(base, LIGHTHOUSE_PATHS, access))
      lines.push(
        `Lighthouse mobile ${r.route.padEnd(21)} performance ${String(r.performance).padStart(3)}  LCP ${(r.lcpMs / 1000).toFixed(2)} s  CLS ${r.cls.toFixed(3)}${r.error ? `  (Lighthouse failed: ${r.error})` : ''}`,
      );
  } finally {
    await second.stop();
  }

  const clone = path.join(tmp, 'clone');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
  execFileSync('cp', ['-al', path.join(root, 'node_modules'), path.join(clone, 'node_modules')]);
  for (const ws of ['apps/server', 'apps/web', 'apps/rig-agent', 'packages/contract']) {
    const nested = path.join(root, ws, 'node_modules');
    if (fs.existsSync(nested))
      execFileSync('cp', ['-al', nested, path.join(clone, ws, 'node_modules')]);
  }
  // The install marker is a copy, newer than the clone's lock file: `npm start` sees an install.
  const marker = path.join(clone, 'node_modules/.package-lock.json');
  fs.rmSync(marker);
  fs.copyFileSync(path.join(root, 'node_modules/.package-lock.json'), marker);
  const first = await timeStart(clone, port, path.join(tmp, 'clone-data'));
  await first.stop();
  lines.push(
    `npm start, second start of this install: ${second.seconds.toFixed(1)} s to answering (target < 3 s)`,
    `npm start, fresh clone (install excluded): ${first.seconds.toFixed(1)} s to answering (target < 30 s)`,
  );
  return lines;
}
