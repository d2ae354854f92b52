import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

type ConsoleGuard = {
  /** Console errors matching this are expected in the test (e.g. a deliberate 404). */
  allow: (pattern: RegExp) => void;
};

/**
 * Every journey fails on a console error or uncaught page error it did not expect
 * (DESIGN §6: no console errors).
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await use({ allow: (pattern) => allowed.push(pattern) });
      expect(errors.filter((e) => !allowed.some((p) => p.test(e)))).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** DESIGN §6: no serious or critical axe violations. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad).toEqual([]);
}

/** On a phone the main navigation folds behind "Toggle navigation": opens it when folded. */
export async function openMainNav(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (await nav.isVisible()) return;
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(nav).toBeVisible();
}

/** On a phone, choosing an entry folds the menu (it covered the page chosen); desktops: nothing. */
export async function expectMainNavFolded(page: Page) {
  if (!(await page.getByRole('button', { name: 'Toggle navigation' }).isVisible())) return;
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
}

/** Folds the phone menu again without choosing an entry (choosing one folds it). */
export async function foldMainNav(page: Page) {
  const toggle = page.getByRole('button', { name: 'Toggle navigation' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (!(await toggle.isVisible()) || !(await nav.isVisible())) return;
  await toggle.click();
  await expect(nav).toBeHidden();
}

/** The demo desk account (seeded by `npm start` and the e2e server). */
export const DEMO_STAFF = { username: 'staff@paddock.local', password: 'paddock-staff' };

/** Logs in through the login screen and waits for the dashboard. */
export async function logIn(page: Page, account: { username: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email or Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/dashboard/);
}
