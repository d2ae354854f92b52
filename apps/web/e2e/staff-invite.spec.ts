import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { outboxMail } from './outbox-mail';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

/** The newest login link mailed to `email`, read from the outbox as the owner. */
async function loginLinkFor(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/token', { data: OWNER });
  const { access } = (await login.json()) as { access: string };
  const mail = await outboxMail(request, access, email);
  const link = /https?:\/\/\S+\/login\?token=\S+/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  return link;
}

test('the owner invites a staff member, who logs in from the e-mail with the permission granted', async ({
  page,
  browser,
  request,
  consoleGuard,
}) => {
  // Inviting the same person twice answers 400 on purpose.
  consoleGuard.allow(/status of 400/);
  const email = `e2e-staff-${Date.now()}@example.com`;
  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Staff', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('First name').fill('Nia');
  await page.getByLabel('Last name').fill('Invited');
  await page.getByRole('checkbox', { name: 'See reports' }).check();
  await page.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText(`Invited ${email}: a login link is on its way.`)).toBeVisible();
  const row = page.getByRole('row', { name: /Nia Invited/ });
  await expect(row).toContainText('See reports');

  // Inviting the same person again names the field.
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(page.getByText('This person is on the staff already.')).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  // The new member opens the link: logged in, asked for a password, with Reports in the menu.
  const link = await loginLinkFor(request, email);
  const invited = await browser.newPage();
  await invited.goto(link);
  await expect(invited).toHaveURL(/\/profile\/password\/change$/);
  await invited.goto('/admin/reports');
  await expect(invited.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await invited.close();

  // Granting another permission and taking the member off the staff.
  await page.getByRole('button', { name: 'Edit Permissions: Nia Invited' }).click();
  const dialog = page.getByRole('dialog', { name: 'Permissions of Nia Invited' });
  await dialog.getByRole('checkbox', { name: 'See the audit trail' }).check();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Save Permissions' }).click();
  await expect(row).toContainText('See the audit trail');
  await page.getByRole('button', { name: 'Remove from Staff: Nia Invited' }).click();
  await expect(row).toHaveCount(0);
});

test('Staff on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/staff');
  await expect(page.getByRole('button', { name: 'Send Invitation' })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
