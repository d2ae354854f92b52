import { expect, expectAccessible, logIn, test } from './fixtures';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

test('the owner adds a top bar link in Venue Settings, sees it, and takes it away', async ({
  page,
}) => {
  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Venue Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Venue Settings' })).toBeVisible();
  await expectAccessible(page);
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/settings.png` });

  // A limit from the contract is checked before anything is sent.
  const discount = page.getByLabel('Member discount (%)');
  const saved = await discount.inputValue();
  await discount.fill('150');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(discount).toHaveAttribute('aria-invalid', 'true');
  await discount.fill(saved);

  await page.getByRole('button', { name: 'Add a top bar link' }).click();
  await page.getByLabel('Top bar link 1 label').fill('Race Nights');
  await page.getByLabel('Top bar link 1 address').fill('https://example.com/race-nights');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Race Nights' })).toHaveAttribute(
    'href',
    'https://example.com/race-nights',
  );

  await page.getByRole('button', { name: 'Remove top bar link 1' }).click();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Race Nights' })).toHaveCount(0);
});

/** A 2 × 2 PNG: the bytes decide the type, whatever the file is called. */
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

test('the owner uploads a logo in Venue Settings and it shows in the top bar', async ({ page }) => {
  await logIn(page, OWNER);
  await page.goto('/admin/settings');
  await page.getByLabel('Upload a new logo').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: LOGO,
  });
  await expect(page.getByLabel('Logo address')).toHaveValue(
    /^\/api\/images\/files\/[0-9a-f]{64}\.png$/,
  );
  await expect(page.getByAltText('Logo preview')).toBeVisible();
  await page.getByRole('button', { name: 'Choose Existing' }).first().click();
  await expect(page.getByRole('button', { name: /^Image \d+ \(png, 1 KB\)$/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/settings-logo.png` });
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();

  const logo = page.getByRole('banner').getByRole('img');
  await expect(logo).toHaveAttribute('src', /^\/api\/images\/files\/[0-9a-f]{64}\.png$/);
  // Loaded from the server, not just named: a broken image has no natural width.
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

  await page.getByRole('button', { name: 'Remove Logo' }).click();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('The venue settings have been saved.')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('img')).toHaveCount(0);
});

test('Venue Settings on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/settings');
  await expect(page.getByLabel('Club name')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/settings-phone.png` });
  await expectAccessible(page);
});
