import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3100);

/** The journeys the phone project runs (their test titles). */
const PHONE_JOURNEYS = new RegExp(
  [
    'signup in three steps',
    'a new customer books one seat',
    'join the club with 4 sessions',
    'buy a \\$25 voucher for a friend',
    'a customer cancels from the dashboard',
    'Book It! shows the price',
  ].join('|'),
);
// Workers load this file too, each with its own pid: the runner's folder reaches them through
// the environment (a journey runs a server-side step beside the server: e2e/renew-now.ts).
const dataDir = (process.env.PADDOCK_E2E_DATA_DIR ??= path.join(
  os.tmpdir(),
  `paddock-e2e-${process.pid}`,
));

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    // Bootstrap's transitions off (its own prefers-reduced-motion rules): axe then never reads a
    // button's colours halfway through a hover or focus fade.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' } },
    // The main journeys again on a 390 × 844 phone (issue 15): signup, booking, dashboard,
    // club, voucher. Their bookings fall two weeks later (e2e/booking-support.ts), so both
    // projects share the one server without taking each other's seats.
    {
      name: 'phone',
      use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, isMobile: true },
      grep: PHONE_JOURNEYS,
      // axe over a whole page is slower at phone size on a busy two-core machine.
      timeout: 120_000,
    },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && ../../node_modules/.bin/tsx ../server/src/main.ts`,
    url: `http://127.0.0.1:${port}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Every journey signs its customers up from 127.0.0.1: the per-address signup limit (10 a
      // minute by default) is for the public internet, not one machine playing a venue's crowd.
      // The limits themselves are tested in the server's accounts tests.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    },
  },
});
