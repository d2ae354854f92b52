import { expect, expectAccessible, logIn, test } from './fixtures';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

test('the owner issues a voucher, finds it, voids it with a reason, and its balance page says so', async ({
  page,
}) => {
  // Axe over the screen with its dialog open is slow on a busy two-core machine.
  test.setTimeout(120_000);
  const recipient = `Rita ${Date.now().toString(36)}`;
  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Vouchers', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vouchers' })).toBeVisible();

  // Issue $40 for a named recipient.
  await page.getByLabel('Amount (USD)').fill('40');
  await page.getByLabel('Recipient name').fill(recipient);
  await page.getByLabel('Recipient email').fill('rita@example.com');
  await page.getByLabel('Message').fill('Thanks for racing with us');
  await page.getByRole('button', { name: 'Issue Voucher' }).click();
  const issued = page.getByText(/^Voucher [A-Z2-9]{12} issued for \$40\.00\.$/);
  await expect(issued).toBeVisible();
  const code = /Voucher ([A-Z2-9]{12})/.exec((await issued.textContent()) ?? '')![1];

  // Found by the recipient's name, active.
  await page.getByLabel('Search').fill(recipient.toLowerCase());
  const row = page.getByRole('row', { name: new RegExp(code) });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('$40.00');
  await expect(page.getByRole('row')).toHaveCount(2);

  // Open it: no redemptions; void it, a reason first.
  await row.getByRole('button', { name: code }).click();
  const dialog = page.getByRole('dialog', { name: `Voucher ${code}` });
  await expect(dialog.getByText('Not spent yet.')).toBeVisible();
  await expect(dialog).toContainText('Thanks for racing with us');
  await dialog.getByRole('button', { name: 'Void Voucher' }).click();
  await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Enter the reason for voiding this voucher.')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Issued twice by mistake');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Void Voucher' }).click();
  await expect(dialog.getByText('Issued twice by mistake')).toBeVisible();
  await expect(dialog).toContainText('Voided');
  await expect(dialog.getByRole('button', { name: 'Void Voucher' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(row).toContainText('Voided');

  // The status filter agrees.
  await page.getByLabel('Status').selectOption('active');
  await expect(row).toHaveCount(0);
  await page.getByLabel('Status').selectOption('voided');
  await expect(row).toContainText('Voided');

  // Anyone checking the balance learns it is void.
  await page.goto('/vouchers/balance');
  await page.getByLabel('Voucher Code').fill(code);
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(
    page.getByText('This voucher has been voided and can no longer be used.'),
  ).toBeVisible();
});

test('Vouchers on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/vouchers');
  await expect(page.getByRole('button', { name: 'Issue Voucher' })).toBeVisible();
  // A voucher's row stays a row: its "Issued by" address does not fold a letter or two a line.
  const recipient = `Phoebe ${Date.now().toString(36)}`;
  await page.getByLabel('Amount (USD)').fill('15');
  await page.getByLabel('Recipient name').fill(recipient);
  await page.getByRole('button', { name: 'Issue Voucher' }).click();
  await expect(page.getByText(/issued for \$15\.00\.$/)).toBeVisible();
  await page.getByLabel('Search').fill(recipient);
  const row = page.getByRole('row', { name: new RegExp(recipient) });
  await expect(row).toContainText('Issued by admin@paddock.local');
  expect((await row.boundingBox())!.height).toBeLessThan(100);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
