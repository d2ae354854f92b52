import type { Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';

// Route blocking must see the screen's own requests, not a service worker's.
test.use({ serviceWorkers: 'block' });

async function boardId(page: Page) {
  const boards = (await (await page.request.get('/api/boards')).json()) as {
    id: number;
    name: string;
  }[];
  return boards.find((b) => b.name === 'Monza GT3 — All Time')!.id;
}

test('staff see a named screen check in, and tell it to reload', async ({ page, browser }) => {
  const tv = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  await tv.setViewportSize({ width: 1920, height: 1080 });
  await tv.goto(`/display/${await boardId(page)}?screen=Bar%20TV`);
  await expect(tv.getByRole('list', { name: 'Podium' })).toBeVisible();
  await tv.evaluate(() => Object.assign(window, { beforeReload: true }));

  await logIn(page, DEMO_STAFF);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Wall Screens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Wall Screens' })).toBeVisible();
  const row = page.getByRole('row', { name: /Bar TV/ });
  await expect(row).toContainText('Online');
  await expect(row.getByRole('link')).toHaveText(/^\/display\/\d+\?screen=Bar%20TV$/);
  await expectAccessible(page);

  const reloaded = tv.waitForEvent('load', { timeout: 5000 });
  await row.getByRole('button', { name: 'Reload Bar TV' }).click();
  await expect(page.getByText('Bar TV will reload now.')).toBeVisible();
  await reloaded;
  expect(await tv.evaluate(() => 'beforeReload' in window)).toBe(false);
  await expect(tv.getByRole('list', { name: 'Podium' })).toBeVisible();

  // On a phone too.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Reload All Screens' })).toBeVisible();
  await tv.context().close();
});

test('a screen that hears nothing for 30 s says since when, and clears it once back', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.clock.install();
  await page.route('**/api/events?**', (route) => route.abort());
  await page.goto(`/display/${await boardId(page)}`);
  await expect(page.getByRole('list', { name: 'Podium' })).toBeVisible();
  const badge = page.getByRole('status').filter({ hasText: /^offline since \d\d:\d\d$/ });
  await page.clock.runFor(25_000);
  await expect(badge).toHaveCount(0);
  await page.clock.runFor(10_000);
  await expect(badge).toBeVisible();
  // The last data stays on the screen meanwhile.
  await expect(page.getByRole('list', { name: 'Podium' }).getByRole('listitem')).toHaveCount(3);
  await page.unroute('**/api/events?**');
  await page.clock.runFor(31_000);
  await expect(badge).toHaveCount(0);
});

test('a screen on an older build reloads once onto the new one, and never loops', async ({
  page,
}) => {
  // The server announces a build other than the one the page runs (as after a redeploy).
  await page.route('**/api/events?**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: 'event: hello\ndata: {"build":"/assets/index-next.js","screen_id":null}\n\n',
    }),
  );
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`/display/${await boardId(page)}`);
  await expect.poll(() => loads, { timeout: 5000 }).toBe(2);
  // It still hears the other build on every reconnect, but does not reload again.
  await page.waitForTimeout(4000);
  expect(loads).toBe(2);
  await expect(page.getByRole('list', { name: 'Podium' })).toBeVisible();
});
