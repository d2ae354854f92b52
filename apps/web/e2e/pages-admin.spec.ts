import { expect, expectAccessible, logIn, openMainNav, test } from './fixtures';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

test('the owner writes a custom page with a sanitised preview and sees it in the top bar', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const menuName = `Rules ${stamp}`;
  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Custom Pages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Custom Pages' })).toBeVisible();

  await page.getByRole('button', { name: 'New Page' }).click();
  await page.getByLabel('Name', { exact: true }).fill(`House Rules ${stamp}`);
  await page.getByLabel('Menu name').fill(menuName);
  await page.getByLabel('Menu order').fill('-900');
  await page
    .getByLabel('HTML')
    .fill(
      '<h2 onclick="alert(1)">Be kind</h2><script>alert(2)</script><p>No food in the rigs.</p>',
    );
  // The preview is what the server will keep: the heading without its handler, no script.
  const preview = page.getByTestId('page-preview');
  await expect(preview.getByRole('heading', { name: 'Be kind' })).toBeVisible();
  await expect(preview).toContainText('No food in the rigs.');
  await expect(page.getByText(/Some markup was removed/)).toBeVisible();
  expect(await preview.innerHTML()).not.toMatch(/onclick|script/);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create Page' }).click();
  await expect(page.getByText('The page has been saved.')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(menuName) });
  await expect(row).toContainText('-900');

  // Menu order -900 puts it first among the custom pages in the top bar; it opens the page.
  await openMainNav(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: menuName }).click();
  await expect(page.getByRole('heading', { level: 1, name: `House Rules ${stamp}` })).toBeVisible();
  await expect(page.getByText('No food in the rigs.')).toBeVisible();

  // Editing keeps the form's values; a bad order is named on its field.
  await page.goto('/admin/pages');
  await page.getByRole('button', { name: `Edit House Rules ${stamp}` }).click();
  await expect(page.getByLabel('Menu name')).toHaveValue(menuName);
  await page.getByLabel('Menu order').fill('5000');
  await page.getByRole('button', { name: 'Save Page' }).click();
  await expect(page.getByLabel('Menu order')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Menu order').fill('3');
  await page.getByRole('button', { name: 'Save Page' }).click();
  await expect(row).toContainText('3');

  await page.getByRole('button', { name: `Delete House Rules ${stamp}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Page' }).click();
  await expect(page.getByText('The page has been deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(nav.getByRole('link', { name: menuName })).toHaveCount(0);
});

test('Custom Pages on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/pages');
  await page.getByRole('button', { name: 'New Page' }).click();
  await expect(page.getByLabel('HTML')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
