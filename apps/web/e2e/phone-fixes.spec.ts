import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { signIn, signUp } from './booking-support';

// Issue 30's phone and touch points, at 390 × 844 (decision 0098). Screenshots go to /tmp.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** The element's box lies inside the 390 px wide screen and shows all of its text. */
async function expectOnScreen(target: Locator) {
  const box = (await target.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await target.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test('phone: leaderboard times whole and on screen, upcoming reservations first, seven seats, 24 px checkboxes', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'phone-fixes');
  await signIn(page, customer);

  // The dashboard: the upcoming reservations come before the payment and club panels.
  await page.goto('/dashboard');
  const upcoming = page.getByRole('heading', { name: 'Upcoming Reservations' });
  const payment = page.getByRole('heading', { name: 'Payment Method' });
  await expect(upcoming).toBeVisible();
  await expect(payment).toBeVisible();
  expect((await upcoming.boundingBox())!.y).toBeLessThan((await payment.boundingBox())!.y);
  await expectOnScreen(upcoming);
  await page.screenshot({ path: '/tmp/c3-phone-dashboard.png' });

  // The leaderboard table: every row's time whole, no column off the screen.
  await page.goto('/leaderboards');
  const table = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Time' }) });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const time = table.getByRole('row').nth(1).getByRole('cell').nth(4);
  await expect(time).toHaveText(/^\d+:\d\d\.\d{3}$/);
  await expectOnScreen(time);
  await expectOnScreen(table.getByRole('row').nth(1));
  await noSidewaysScroll(page);
  await table.screenshot({ path: '/tmp/c3-phone-leaderboard.png' });
  await expectAccessible(page);

  // The booking grid: up to seven seats side by side on the screen; the type checkboxes 24 px.
  await page.goto('/reservations/all');
  const checkbox = page.getByRole('checkbox').first();
  await expect(checkbox).toBeVisible();
  const tick = (await checkbox.boundingBox())!;
  expect(tick.width).toBeGreaterThanOrEqual(24);
  expect(tick.height).toBeGreaterThanOrEqual(24);
  const grid = page.getByRole('grid', { name: /^Simulators and times on / });
  await grid.scrollIntoViewIfNeeded();
  await expect(grid).toBeVisible();
  const seats = grid.getByRole('columnheader');
  const count = await seats.count();
  expect(count).toBeGreaterThan(3);
  for (let i = 0; i < Math.min(count, 8); i++) {
    const box = (await seats.nth(i).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.width).toBeGreaterThanOrEqual(i === 0 ? 40 : 44);
  }
  await noSidewaysScroll(page);
  await grid.screenshot({ path: '/tmp/c3-phone-grid.png' });
  await expectAccessible(page);
});

test('phone: my laps and a wall-screen board fit the screen, a row per block', async ({ page }) => {
  await logIn(page, { username: 'bob@paddock.local', password: 'paddock-demo' });
  await page.goto('/laps');
  const laps = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Recorded' }) });
  const lap = laps.getByRole('row').nth(1);
  await expect(lap).toBeVisible();
  await expectOnScreen(lap);
  await expectOnScreen(
    lap
      .getByRole('cell')
      .filter({ hasText: /^\d+:\d\d\.\d{3}$/ })
      .first(),
  );
  await noSidewaysScroll(page);
  await expectAccessible(page);

  // The demo's first board on a wall screen opened on a phone.
  await page.goto('/display/1');
  const board = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Time' }) });
  const entry = board.getByRole('row').nth(1);
  await expect(entry).toBeVisible();
  await expectOnScreen(entry);
  await noSidewaysScroll(page);
  await page.screenshot({ path: '/tmp/c3-phone-display.png' });
});
