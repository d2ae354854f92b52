import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET } from './desk-support';

/** Issue 41, the planner's small things and the wall screens, on a tablet and a desktop. */
for (const [device, viewport] of [
  ['tablet', TABLET],
  ['desktop', { width: 1440, height: 900 }],
] as const)
  test(`${device}: the planner opens at now, zooms at once, and the keyboard goes down a seat`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await logIn(page, DEMO_STAFF);
    await page.goto('/admin/seats');
    const grid = page.getByRole('region', { name: /^Planner for Paddock Downtown/ });
    await expect(grid).toBeVisible();

    // Previous/Next day are at least 24 × 24 px (WCAG 2.2 target size).
    for (const name of ['Previous day', 'Next day']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }

    // Today opens at the current time: the current slot's row is in view (when open now).
    const nowTime = grid.locator('.paddock-planner-time.fw-bold');
    if ((await nowTime.count()) > 0 || (await grid.evaluate((el) => el.scrollTop)) > 0)
      await expect(nowTime).toBeInViewport();

    // Zoom applies at once, without a reload: a column is 520 px × zoom.
    const firstCell = grid.locator('.paddock-planner-cell').first();
    await page.getByLabel('Zoom').fill('0.5');
    await expect.poll(async () => (await firstCell.boundingBox())!.width).toBe(260);
    await page.getByLabel('Zoom').fill('1');
    await expect.poll(async () => (await firstCell.boundingBox())!.width).toBe(520);

    // The first cell is a few Tabs from the top: past the site's and the planner's skip links.
    await page.goto('/admin/seats');
    await expect(grid.getByRole('checkbox').first()).toBeVisible();
    const skipToGrid = page.getByRole('link', { name: 'Skip to the planner grid' });
    let tabs = 0;
    while (tabs < 6 && !(await skipToGrid.evaluate((a) => a === document.activeElement))) {
      await page.keyboard.press('Tab');
      tabs += 1;
      const main = page.getByRole('link', { name: 'Skip to main content' });
      if (await main.evaluate((a) => a === document.activeElement))
        await page.keyboard.press('Enter');
    }
    expect(tabs).toBeLessThanOrEqual(3);
    await page.keyboard.press('Enter');
    const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
    const first = await focusedId();
    expect(first).toMatch(/^cell-\d+-/);
    // Tab goes down the same seat's column.
    await page.keyboard.press('Tab');
    const second = await focusedId();
    expect(second).toMatch(/^cell-\d+-/);
    expect(second.split('-')[1]).toBe(first.split('-')[1]);
    expect(second > first).toBe(true);
    await expectAccessible(page);
  });

test('the wall screens show no site navigation or footer', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  for (const path of ['/welcome', '/splash', '/display']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Toggle navigation' })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    await expect(page.getByText('Terms of Service')).toHaveCount(0);
  }
});
