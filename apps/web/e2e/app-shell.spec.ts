import { expect, expectAccessible, test } from './fixtures';

test('an unknown path shows Page Not Found, and Go Back Home leaves it', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Go Back Home' }).click();
  // Home is the dashboard, which sends a visitor to signup.
  await expect(page).toHaveURL(/\/signup\?redirect=%2Fdashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeVisible();
});

test('a visitor sees the logged-out top bar and footer', async ({ page }) => {
  await page.goto('/leaderboards');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Leaderboards', 'Cars & Tracks', 'Log In', 'Sign Up']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'MyLaps' })).toHaveCount(0);
  await nav.getByRole('button', { name: 'Book Now' }).click();
  await expect(page.getByRole('link', { name: 'Book a Simulator' })).toBeVisible();
  await expect(page.getByText('Admin Menu')).toHaveCount(0);

  const footer = page.getByRole('contentinfo');
  for (const name of ['Forgot Password', 'Create an Account', 'Log Out', 'Purchase Gift Voucher']) {
    await expect(footer.getByRole('link', { name })).toBeVisible();
  }
  await expect(footer.getByRole('button', { name: 'Terms of Service' })).toBeVisible();
  await expect(footer.getByRole('button', { name: 'Voucher Balance' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Change Password' })).toHaveCount(0);
  await expect(footer.getByText(/© \d{4} .+\. All rights reserved\./)).toBeVisible();
  // WCAG 2.2 target size: every footer link and button is at least 24 px tall.
  for (const target of await footer.locator('a, button').all()) {
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  }
});

test('?nav=false hides the top bar', async ({ page }) => {
  await page.goto('/leaderboards?nav=false');
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
});

test('the terms modal shows the configured terms', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Terms of Service' }).click();
  const dialog = page.getByRole('dialog', { name: 'Terms of Service' });
  await expect(dialog).toBeVisible();
  // The window comes from the cancellation policy setting (24 hours by default), as everywhere.
  await expect(dialog).toContainText('24 hours notice is required');
  await expect(dialog).not.toContainText('48 hours');
  await expect(dialog).toContainText('September 6th, 2023');
  await dialog.getByRole('button', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('dialog', { name: 'Privacy Policy' })).toContainText('advertising');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the voucher balance modal needs a code and reports an unknown one', async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 404/);
  await page.goto('/login');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Voucher Balance' }).click();
  const dialog = page.getByRole('dialog', { name: 'Voucher Balance' });
  const check = dialog.getByRole('button', { name: 'Check Balance' });
  await expect(check).toBeDisabled();
  await dialog.getByLabel('Voucher Code').fill('nosuchcode');
  await expect(check).toBeEnabled();
  await check.click();
  await expect(page.getByText('Voucher code not found!')).toBeVisible();
});

test('login-only screens send a visitor to signup with a prompt', async ({ page }) => {
  await page.goto('/reservations/all?location=1');
  await expect(page).toHaveURL(/\/signup\?redirect=%2Freservations%2Fall%3Flocation%3D1$/);
  await expect(page.getByText('Sign up or Log in to view sim availability')).toBeVisible();
  await page.goto('/vouchers/purchase');
  await expect(page.getByText('Sign up or Log in to purchase a voucher')).toBeVisible();
  await page.goto('/subscription');
  await expect(page.getByText('Sign up or Log in to create a subscription')).toBeVisible();
});

for (const path of ['/signup', '/login', '/login/password/reset']) {
  test(`${path} has no serious accessibility problems`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    await expectAccessible(page);
  });
}

test('a custom page with a menu name is a nav link and shows its content', async ({ page }) => {
  await page.goto('/leaderboards');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const pageLinks = nav.locator('a[href^="/pages/"]');
  await expect(pageLinks.first()).toBeVisible();
  const name = (await pageLinks.first().textContent()) ?? '';
  await pageLinks.first().click();
  await expect(page).toHaveURL(/\/pages\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await expect(page.getByRole('main').locator('article > div')).not.toBeEmpty();
  await expect(nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);
});
