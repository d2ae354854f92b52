import { expect, expectAccessible, test } from './fixtures';

test('/display: the form with its limits and defaults, then the board on a TV', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/display');
  await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard Display' })).toBeVisible();
  const items = page.getByLabel('Items to Show');
  await expect(items).toHaveValue('15');
  await expect(items).toHaveAttribute('min', '1');
  await expect(items).toHaveAttribute('max', '100');
  const reload = page.getByLabel(/Reload Interval/);
  await expect(reload).toHaveValue('60');
  await expect(reload).toHaveAttribute('min', '10');
  await expect(reload).toHaveAttribute('max', '600');
  await expect(reload).toHaveAttribute('step', '10');
  await expectAccessible(page);
  await page.getByLabel('Board').selectOption({ label: 'Monza GT3 — All Time' });
  await items.fill('10');
  await page.getByRole('button', { name: 'Show Leaderboard' }).click();
  await expect(page).toHaveURL(/\/display\/\d+\?itemsToShow=10&reloadInterval=60$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Monza GT3 — All Time' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Podium' }).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Board Info' }).click();
  await expect(page.getByRole('dialog')).toContainText('Beat the top three');
  await expectAccessible(page);
  // The form remembers the last choice.
  await page.goto('/display');
  await expect(page.getByLabel('Items to Show')).toHaveValue('10');
});

test('/display/:id shows a new best lap within 2 s of POST /laps, without a reload', async ({
  page,
  request,
}) => {
  const token = async (username: string, password: string) =>
    (
      (await (await request.post('/api/auth/token', { data: { username, password } })).json()) as {
        access: string;
      }
    ).access;
  const staff = await token('staff@paddock.local', 'paddock-staff');
  const bob = await token('bob@paddock.local', 'paddock-demo');
  const auth = (t: string) => ({ Authorization: `Bearer ${t}` });
  await request.patch('/api/users/me', {
    headers: auth(bob),
    data: { sim_guid: '76561199000000042' },
  });
  const seats = (await (await request.get('/api/calendars?page_size=1')).json()) as {
    results: { id: number }[];
  };
  const key = (
    (await (
      await request.post('/api/rig_keys', {
        headers: auth(staff),
        data: { calendar: seats.results[0].id },
      })
    ).json()) as { key: string }
  ).key;
  const boards = (await (await request.get('/api/boards')).json()) as {
    id: number;
    name: string;
  }[];
  const monza = boards.find((b) => b.name === 'Monza GT3 — All Time')!;

  await page.goto(`/display/${monza.id}?itemsToShow=15&reloadInterval=600`);
  const podium = page.getByRole('list', { name: 'Podium' });
  await expect(podium.getByRole('listitem')).toHaveCount(3);
  await expect(podium.getByText('1:39.999')).toHaveCount(0);
  await page.waitForTimeout(500);
  const sent = Date.now();
  const lap = await request.post('/api/laps', {
    headers: { Authorization: `Rig ${key}` },
    data: {
      client_lap_id: `e2e-${sent}`,
      sim: 'ac',
      track: 'monza',
      layout: 'full course',
      car: 'ks_audi_r8_lms',
      lap_ms: 99_999,
      driver_guid: '76561199000000042',
      recorded_at: new Date().toISOString(),
    },
  });
  expect(lap.status()).toBe(201);
  await expect(podium.getByRole('listitem').first()).toContainText('1:39.999', { timeout: 2000 });
  expect(Date.now() - sent).toBeLessThan(2500);
});

test('/splash: prices per seat type at the venue, the VR note, the club saving, on a TV', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/splash');
  await expect(page.getByRole('heading', { level: 1, name: 'Simulator Pricing' })).toBeVisible();
  await expect(
    page.getByRole('row', { name: /Pro Cockpit\s+\$25\.00 \/ 30 minutes/ }),
  ).toBeVisible();
  await expect(page.getByRole('row', { name: /VR Rig\*\s+\$35\.00 \/ 30 minutes/ })).toBeVisible();
  await expect(page.getByText('* VR availability varies')).toBeVisible();
  await expect(page.getByText('Join the Apex Club and save 20% on every race.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Check Availability' })).toBeVisible();
  await expectAccessible(page);
});

test('/welcome: the price list held 30 s, then a board every 10 s', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.clock.install();
  await page.goto('/welcome');
  const active = page.locator('.carousel-item.active');
  await expect(active.getByRole('heading', { name: 'Simulator Pricing' })).toBeVisible();
  // The boards' slides are in place before the clock moves (on a busy machine their list can
  // arrive after the price list shows).
  await expect(page.locator('.carousel-item').nth(2)).toBeAttached();
  await page.clock.runFor(29_000);
  await expect(active.getByRole('heading', { name: 'Simulator Pricing' })).toBeVisible();
  await page.clock.runFor(2_000);
  await expect(active.getByRole('heading', { name: 'Monza GT3 — All Time' })).toBeVisible();
  await page.clock.runFor(10_500);
  await expect(active.getByRole('heading', { name: 'Monza — This Week' })).toBeVisible();
  await expectAccessible(page);
});
