import { expect, test } from '@playwright/test';

test('the app opens', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Paddock' })).toBeVisible();
  expect(errors).toEqual([]);
});
