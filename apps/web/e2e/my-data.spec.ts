import fs from 'node:fs/promises';
import { bearer, bookingDate, saveCardViaApi, signIn, signUp } from './booking-support';
import { expect, expectAccessible, test } from './fixtures';

// Issue 45, decision 0124: a customer downloads their data and deletes their account on a phone;
// the refund is stated before they confirm, and logging in fails afterwards. What the database
// keeps (reports' totals, no personal field left) is the server test's (my-data.test.ts).

test('a customer downloads their data, deletes the account with the stated refund, and cannot log in again', async ({
  page,
  request,
  consoleGuard,
}) => {
  const customer = await signUp(request, 'my-data');
  await saveCardViaApi(request, customer, '4242424242424242');
  // One paid booking well inside the free window.
  const seats = (await (await request.get('/api/calendars')).json()) as {
    results: { id: number }[];
  };
  let total = 0;
  for (const seat of seats.results) {
    for (const hhmm of ['15:00', '16:30', '18:00']) {
      const quote = await request.post('/api/reservations/checkouts/quote', {
        headers: bearer(customer),
        data: { reservations: [{ calendar: seat.id, slot: `${bookingDate(12)}T${hhmm}` }] },
      });
      if (!quote.ok()) continue;
      const q = (await quote.json()) as { checkout_id: number; total_cents: number };
      const done = await request.post(`/api/reservations/checkouts/${q.checkout_id}/process`, {
        headers: bearer(customer),
      });
      if (done.ok()) {
        total = q.total_cents;
        break;
      }
    }
    if (total) break;
  }
  expect(total).toBeGreaterThan(0);
  const amount = `$${(total / 100).toFixed(2)}`;

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, customer);
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toBeVisible();

  // Download my data: one JSON file, its summary in words first.
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await fs.readFile((await download.path())!, 'utf8')) as {
    summary: string[];
    profile: { email: string };
    bookings: unknown[];
    payments: unknown[];
  };
  expect(data.profile.email).toBe(customer.email);
  expect(data.summary[0]).toContain(customer.email);
  expect(data.bookings).toHaveLength(1);
  expect(data.payments.length).toBeGreaterThanOrEqual(1);

  // Delete my account: what happens is said first, the refund as the cancel quote has it.
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete my account?' });
  await expect(dialog.getByText(`${amount} back to your Visa ending 4242`)).toBeVisible();
  await expect(dialog).toContainText(
    `Your 1 future booking is cancelled under the cancellation policy: ${amount} comes back.`,
  );
  await expect(dialog).toContainText('cannot log in again');
  await expectAccessible(page);
  // A wrong password is said on its field; nothing is deleted.
  await dialog.getByLabel('Current password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Your current password is not correct.')).toBeVisible();
  consoleGuard.allow(/status of 400/);
  // By keyboard: the password, then Enter submits.
  await dialog.getByLabel('Current password').fill('paddock-e2e-pass');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your account is deleted.')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Logging in fails, on the screen and through the API.
  await page.goto('/login');
  await page.getByLabel('Email or Username').fill(customer.email);
  await page.getByLabel('Password').fill('paddock-e2e-pass');
  await page.getByRole('button', { name: 'Log In' }).click();
  consoleGuard.allow(/status of 401/);
  await expect(
    page.getByText('Login failed, please check your login details and try again.'),
  ).toBeVisible();
  await expectAccessible(page);
  const api = await request.post('/api/auth/token', {
    data: { username: customer.email, password: 'paddock-e2e-pass' },
  });
  expect(api.status()).toBe(401);
});
