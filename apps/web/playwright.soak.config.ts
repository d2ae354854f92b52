import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The wall-screen soak (`npm run soak -w @paddock/web`): one display kept open while its server
 * is stopped and started and its network cut. The test runs the server itself (it has to stop
 * it), so there is no webServer here. SOAK_CYCLES makes it longer by hand.
 */
export default defineConfig({
  ...base,
  testDir: 'soak',
  outputDir: 'test-results/soak',
  timeout: 30 * 60_000,
  // As the journeys: one retry in CI, and the summary names a test that needed it (flaky).
  retries: process.env.CI ? 1 : 0,
  webServer: undefined,
  use: { ...base.use, baseURL: undefined },
});
