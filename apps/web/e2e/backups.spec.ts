import fs from 'node:fs';
import zlib from 'node:zlib';
import { expect, expectAccessible, logIn, test } from './fixtures';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

test('the owner takes a backup in the back office and downloads it', async ({ page }) => {
  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
  await expect(page.getByText(/A backup is taken every night at 03:30/)).toBeVisible();

  await page.getByRole('button', { name: 'Take a Backup Now' }).click();
  await expect(page.getByText(/^Backup paddock-\S+-manual\.backup\.gz taken\.$/)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Manual' }).first();
  await expect(row).toBeVisible();
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: /^Download/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^paddock-\d{8}T\d{6}Z-manual\.backup\.gz$/);
  const bytes = fs.readFileSync(await download.path());
  const header = JSON.parse(zlib.gunzipSync(bytes).toString('utf8').split('\n', 1)[0]);
  expect(header).toMatchObject({ format: 'paddock-backup', kind: 'manual' });
  expect(header.tables.length).toBeGreaterThan(10);
});
