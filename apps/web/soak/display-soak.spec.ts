import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Soak (issue 10): a leaderboard display left open while its server is stopped and started
 * and its network cut, as on a venue's wall. Each outage lasts past the 30 s offline badge. The
 * screen must come back by itself showing current data, its JS heap must not grow from cycle to
 * cycle, and the console may hold nothing but the failed requests of the outages.
 * SOAK_CYCLES=n repeats the 3 restarts + 2 cuts n times (1 in CI).
 */
const PORT = Number(process.env.SOAK_PORT ?? 3500);
/** The server itself, for the test's own calls. */
const SERVER = `http://localhost:${PORT}`;
/** The screen reaches the server through a proxy that can drop the network like bad Wi-Fi. */
const PROXY_PORT = Number(process.env.SOAK_PROXY_PORT ?? PORT + 1);
const BASE = `http://localhost:${PROXY_PORT}`;
const ROUNDS = Number(process.env.SOAK_CYCLES ?? 1);
const OUTAGE_MS = 32_000;
// Not made here: the server makes it, with the rights its embedded PostgreSQL needs.
const DATA_DIR = path.join(os.tmpdir(), `paddock-soak-${process.pid}`);
const OUTAGE_NOISE =
  /Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|SOCKET_NOT_CONNECTED|FAILED|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING)/;

/**
 * A TCP proxy between the browser and the server. `cut()` is a Wi-Fi drop: open connections go
 * silent (nothing is forwarded, nothing is closed) and new ones hang; `restore()` ends the dead
 * connections and forwards again.
 */
function wifi() {
  let down = false;
  const silent = new Set<net.Socket>();
  const live = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    client.on('error', () => {});
    if (down) {
      silent.add(client);
      return;
    }
    const upstream = net.connect(PORT, '127.0.0.1');
    upstream.on('error', () => client.destroy());
    const pair = { client, upstream };
    live.add(pair);
    client.pipe(upstream).pipe(client);
    client.on('close', () => {
      live.delete(pair);
      upstream.destroy();
    });
  });
  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(PROXY_PORT, '127.0.0.1', () => resolve());
      }),
    cut() {
      down = true;
      for (const { client, upstream } of live) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        upstream.destroy();
        silent.add(client);
      }
      live.clear();
    },
    restore() {
      down = false;
      for (const client of silent) client.destroy();
      silent.clear();
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
const network = wifi();

let server: ChildProcess | null = null;

async function startServer() {
  const busy = await fetch(`${SERVER}/api/openapi.json`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${PORT} already answers: another server is running there`);
  server = spawn(
    path.resolve('../../node_modules/.bin/tsx'),
    [path.resolve('../server/src/main.ts')],
    {
      env: {
        ...process.env,
        PORT: String(PORT),
        DATA_DIR,
        PUBLIC_URL: SERVER,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const proc = server;
  let exited: string | null = null;
  proc.once('exit', (code, signal) => (exited = `exit code ${code ?? signal}`));
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    // A server that died (a busy port, a failed migration) is not waited for: say so at once.
    if (exited) throw new Error(`the soak's server stopped while starting (${exited})`);
    try {
      if ((await fetch(`${SERVER}/api/openapi.json`)).ok) return Date.now();
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

async function stopServer() {
  const proc = server;
  server = null;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

test.afterAll(async () => {
  await stopServer();
  network.restore();
  await network.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

async function usedHeap(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

/** A rig key and a racer who drives with it, to send a new best lap after each outage. */
async function lapSender(request: APIRequestContext) {
  const token = async (username: string, password: string) =>
    (
      (await (
        await request.post(`${SERVER}/api/auth/token`, { data: { username, password } })
      ).json()) as {
        access: string;
      }
    ).access;
  const staff = await token('staff@paddock.local', 'paddock-staff');
  const bob = await token('bob@paddock.local', 'paddock-demo');
  await request.patch(`${SERVER}/api/users/me`, {
    headers: { Authorization: `Bearer ${bob}` },
    data: { sim_guid: '76561199000000077' },
  });
  const seats = (await (await request.get(`${SERVER}/api/calendars?page_size=1`)).json()) as {
    results: { id: number }[];
  };
  const { key } = (await (
    await request.post(`${SERVER}/api/rig_keys`, {
      headers: { Authorization: `Bearer ${staff}` },
      data: { calendar: seats.results[0].id },
    })
  ).json()) as { key: string };
  let lapMs = 99_000;
  return async () => {
    lapMs -= 100;
    const res = await request.post(`${SERVER}/api/laps`, {
      headers: { Authorization: `Rig ${key}` },
      data: {
        client_lap_id: `soak-${lapMs}`,
        sim: 'ac',
        track: 'monza',
        layout: 'full course',
        car: 'ks_audi_r8_lms',
        lap_ms: lapMs,
        driver_guid: '76561199000000077',
        recorded_at: new Date().toISOString(),
      },
    });
    expect(res.status()).toBe(201);
    const s = Math.floor(lapMs / 1000);
    return `1:${String(s - 60).padStart(2, '0')}.${String(lapMs % 1000).padStart(3, '0')}`;
  };
}

test('a wall display survives restarts and network cuts, and ends current', async ({
  browser,
  request,
}) => {
  await network.listen();
  await startServer();
  const sendLap = await lapSender(request);
  const boards = (await (await request.get(`${SERVER}/api/boards`)).json()) as {
    id: number;
    name: string;
  }[];
  const monza = boards.find((b) => b.name === 'Monza GT3 — All Time')!;

  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.goto(`${BASE}/display/${monza.id}?reloadInterval=600&screen=Soak`);
  const podium = page.getByRole('list', { name: 'Podium' });
  const badge = page.getByRole('status').filter({ hasText: /^offline since/ });
  await expect(podium.getByRole('listitem')).toHaveCount(3, { timeout: 30_000 });
  // The service worker controls the page and has its shell and data.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
    timeout: 30_000,
  });
  // What is missing from the worker's cache (named in the failure, if any).
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const cache = await caches.open('paddock-screens-v1');
          const keys = (await cache.keys()).map((r) => r.url);
          return ['/__screen-shell__', '/__venue-config__', '/results?'].filter(
            (part) => !keys.some((url) => url.includes(part)),
          );
        }),
      { timeout: 30_000 },
    )
    .toEqual([]);

  const report: { cycle: string; heapMB: number; recoveredMs: number; lapShownMs: number }[] = [];
  const heap0 = await usedHeap(page);

  /**
   * After an outage: a lap set while the screen was away shows once it is back (resumed feed),
   * the badge clears, and a lap set then shows at once.
   */
  async function recover(cycle: string, backAt: number) {
    const missed = await sendLap();
    await expect(podium.getByRole('listitem').first()).toContainText(missed, { timeout: 45_000 });
    const recoveredMs = Date.now() - backAt;
    await expect(badge).toHaveCount(0);
    const sent = Date.now();
    const live = await sendLap();
    await expect(podium.getByRole('listitem').first()).toContainText(live, { timeout: 5_000 });
    const lapShownMs = Date.now() - sent;
    report.push({ cycle, heapMB: (await usedHeap(page)) / 2 ** 20, recoveredMs, lapShownMs });
  }

  for (let round = 0; round < ROUNDS; round++) {
    for (let restart = 1; restart <= 3; restart++) {
      await stopServer();
      await expect(badge).toBeVisible({ timeout: OUTAGE_MS + 10_000 });
      await expect(podium.getByRole('listitem')).toHaveCount(3);
      if (round === 0 && restart === 1) {
        // A reload while the server is down still shows the last screen (service worker).
        await page.reload();
        await expect(podium.getByRole('listitem')).toHaveCount(3);
      }
      await recover(`restart ${round * 3 + restart}`, await startServer());
    }
    for (let cut = 1; cut <= 2; cut++) {
      network.cut();
      await expect(badge).toBeVisible({ timeout: OUTAGE_MS + 10_000 });
      await expect(podium.getByRole('listitem')).toHaveCount(3);
      const backAt = Date.now();
      network.restore();
      await recover(`network cut ${round * 2 + cut}`, backAt);
    }
  }

  const summary = { heap0MB: heap0 / 2 ** 20, cycles: report };
  console.log(JSON.stringify(summary, null, 2));
  fs.mkdirSync('test-results', { recursive: true });
  fs.writeFileSync('test-results/soak.json', JSON.stringify(summary, null, 2));
  // No growth from cycle to cycle: the last is within 20 % (+1 MB) of the first.
  const first = report[0].heapMB;
  const last = report[report.length - 1].heapMB;
  expect(last).toBeLessThan(first * 1.2 + 1);
  expect(consoleErrors.filter((e) => !OUTAGE_NOISE.test(e))).toEqual([]);
  await context.close();
});
