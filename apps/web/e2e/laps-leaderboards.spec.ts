import { expect, expectAccessible, test } from './fixtures';
import { signIn, signUp } from './booking-support';

test('leaderboards: a TIME podium and table, a POINTS board, and the board in the URL', async ({
  page,
}) => {
  await page.goto('/leaderboards');
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboards' })).toBeVisible();
  const boards = page.getByRole('navigation', { name: 'Leaderboards' });
  await expect(boards.getByRole('link', { name: 'Monza GT3 — All Time' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const podium = page.getByRole('list', { name: 'Podium' });
  await expect(podium.getByRole('listitem')).toHaveCount(3);
  await expect(podium.getByText('1st')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Fuel / Tire / Ballast' })).toBeVisible();
  await expectAccessible(page);

  // One board per track, narrowed on the page to one car.
  await page.getByLabel('Car').selectOption({ label: 'Ferrari 488 GT3' });
  await expect(podium.getByText('Audi R8 LMS')).toHaveCount(0);
  await expect(podium.getByText('Ferrari 488 GT3').first()).toBeVisible();
  await page.getByLabel('Car').selectOption({ label: 'All cars' });
  await expect(podium.getByText('Audi R8 LMS').first()).toBeVisible();

  await boards.getByRole('link', { name: 'Club Championship' }).click();
  await expect(page).toHaveURL(/\/leaderboards\/\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Club Championship' })).toBeVisible();
  await expect(podium.getByText(/\d+ pts/).first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Points' })).toBeVisible();
  await expectAccessible(page);
});

test('cars and tracks: filters, badges, the car page, the empty texts, on a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/availability/cars');
  await expect(page.getByRole('heading', { level: 1, name: 'Cars & Tracks' })).toBeVisible();
  // The car's cell names its sim under its name (decision 0091).
  const mx5 = page.getByRole('cell', { name: /^Mazda MX-5 Cup( |$)/ });
  await expect(mx5).toBeVisible();
  await page.getByRole('button', { name: 'Show GT4 cars' }).first().click();
  await expect(page.getByLabel('Racing Group')).toHaveValue(/\d+/);
  await expect(mx5).toHaveCount(0);
  await page.getByRole('button', { name: /View Car\s*: Maserati/ }).click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByRole('heading', { name: 'Maserati GranTurismo MC GT4' })).toBeVisible();
  await expectAccessible(page);
  await modal.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Keywords').fill('no such car at all');
  await expect(page.getByText('No cars matched your search query')).toBeVisible();

  await page.getByRole('link', { name: 'Tracks' }).click();
  await expect(page).toHaveURL(/\/availability\/tracks$/);
  await expect(page.getByRole('columnheader', { name: 'Absolute Lap Record' })).toBeVisible();
  // The demo's Monza (other sims' results may add an "Autodromo Nazionale Monza" of their own).
  const monza = page
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: /^Monza( |$)/ }) });
  await expect(monza.getByText(/\d:\d\d\.\d{3}/)).toBeVisible();
  await expect(page.getByRole('row', { name: /Spa-Francorchamps/ })).toContainText('None');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.getByLabel('Keywords').fill('nowhere');
  await expect(page.getByText('No tracks matched your search query')).toBeVisible();
});

test('my laps: both empty states for a new racer', async ({ page, request }) => {
  const racer = await signUp(request, 'laps');
  await signIn(page, racer);
  await page.goto('/laps');
  await expect(page.getByRole('heading', { level: 1, name: 'My Laps' })).toBeVisible();
  await expect(page.getByText("You haven't recorded any laps yet")).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book Now' }).last()).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Keywords').fill('monza');
  await expect(page.getByText('Your search yielded no results')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByText("You haven't recorded any laps yet")).toBeVisible();
});

test('my laps: a track name ranks the laps on it, mirrored in the URL', async ({ page }) => {
  await page.goto('/login');
  await page
    .getByLabel(/username|e-?mail/i)
    .first()
    .fill('bob@paddock.local');
  await page
    .getByLabel(/password/i)
    .first()
    .fill('paddock-demo');
  await page.getByRole('button', { name: /log in/i }).click();
  await page.waitForURL(/dashboard/);
  await page.goto('/laps');
  await expect(page.getByRole('columnheader', { name: 'Rank' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Monza' }).first().click();
  await expect(page).toHaveURL(/track=\d+/);
  await expect(page).toHaveURL(/group=\d+/);
  await expect(page.getByRole('button', { name: 'Group: GT3' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Rank' })).toBeVisible();
  await expect(page.getByText('My progress on Monza')).toBeVisible();
  // Sessions in one car at a time, the car with the most sessions first (decision 0098).
  const chart = page.getByRole('img', { name: /^Best on Monza in the .+ over \d+ sessions/ });
  await expect(chart).toBeVisible();
  const cars = page.getByLabel('Car', { exact: true });
  await expect(cars.locator('option')).not.toHaveCount(0);
  const chosen = await cars.inputValue();
  const other = await cars
    .locator('option')
    .evaluateAll(
      (options, value) =>
        options.map((o) => (o as HTMLOptionElement).value).find((v) => v !== value),
      chosen,
    );
  if (other) {
    await cars.selectOption(other);
    const name = (await cars.locator('option:checked').textContent())!.replace(
      / \(\d+ sessions?\)$/,
      '',
    );
    await expect(
      page
        .getByRole('img', { name: `in the ${name} went from` })
        .or(page.getByText(`One session in the ${name} so far`)),
    ).toBeVisible();
  }
  const first = page.getByRole('row').nth(1);
  await expect(first.getByRole('cell').first()).toHaveText('1');
  await expect(first).toHaveClass(/fw-bold/);
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Track: Monza' })).toBeVisible();

  // On a phone the chart fits the screen and its 12-unit text stays about 12 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await cars.selectOption(chosen);
  const box = (await chart.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.width).toBeGreaterThan(300);
  await chart.screenshot({ path: '/tmp/c3-progress-phone.png' });
  await expectAccessible(page);
});
