import type { APIRequestContext } from '@playwright/test';
import { bookingDate } from './booking-support';
import { DEMO_STAFF as STAFF, expect, expectAccessible, logIn, test } from './fixtures';
import { outboxMail } from './outbox-mail';

const SHOTS = process.env.E2E_SCREENSHOTS;

async function staffToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/auth/token', { data: STAFF });
  expect(login.ok()).toBe(true);
  return ((await login.json()) as { access: string }).access;
}

/** The id of the one user the staff search finds for `text`. */
async function findUserId(request: APIRequestContext, access: string, text: string) {
  const answer = await request.get(`/api/users?search=${encodeURIComponent(text)}`, {
    headers: { Authorization: `Bearer ${access}` },
  });
  expect(answer.ok()).toBe(true);
  const { results } = (await answer.json()) as { results: { id: number; email: string }[] };
  const user = results.find((u) => u.email === text);
  expect(user).toBeTruthy();
  return user!.id;
}

/** Staff book an unpaid seat for the customer: an outstanding balance to clear. */
async function bookUnpaid(request: APIRequestContext, access: string, userId: number) {
  const seats = await request.get('/api/calendars', {
    headers: { Authorization: `Bearer ${access}` },
  });
  const { results } = (await seats.json()) as { results: { id: number }[] };
  for (const seat of results) {
    for (const hhmm of ['13:00', '14:30', '16:00', '17:30', '19:00']) {
      const answer = await request.post('/api/reservations', {
        headers: { Authorization: `Bearer ${access}` },
        data: { calendar: seat.id, slot: `${bookingDate(9)}T${hhmm}`, user: userId },
      });
      if (answer.status() === 201) return;
    }
  }
  throw new Error('no free slot to book');
}

test('staff clear a balance, send a login link, edit, view history and delete a customer', async ({
  page,
  request,
}) => {
  const access = await staffToken(request);
  const email = `e2e-admin-user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await request.post('/api/users', {
    data: { email, password: 'paddock-e2e-pass' },
  });
  expect(signup.status()).toBe(201);
  const userId = await findUserId(request, access, email);
  await bookUnpaid(request, access, userId);

  await logIn(page, STAFF);
  await page.goto(`/admin/user/${userId}`);
  await expect(page.getByRole('heading', { level: 1, name: email })).toBeVisible();
  const owed = page.getByRole('alert').filter({ hasText: 'Outstanding balance' });
  await expect(owed).toBeVisible();
  await expect(owed.getByRole('cell', { name: /\$\d+\.\d\d/ }).first()).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Active Subscription' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Admin' })).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Add Subscription' })).toBeDisabled();
  await expect(page.getByText('Add a payment method to add a new subscription')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Payment Method' })).toBeVisible();
  await expectAccessible(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-user-desktop.png`, fullPage: true });

  // It asks how it was paid and confirms first (issue 30; e2e/desk-payment.spec.ts has more).
  await page.getByRole('button', { name: 'Mark All Outstanding as Paid' }).click();
  const pay = page.getByRole('dialog', { name: 'Take Payment' });
  await pay.getByRole('radio', { name: 'Cash' }).check();
  await pay.getByRole('button', { name: 'Continue' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm Payment' })
    .getByRole('button', { name: 'Confirm Payment' })
    .click();
  await expect(page.getByText('All outstanding line items have been marked as Paid')).toBeVisible();
  await expect(owed).toHaveCount(0);

  await page.getByRole('button', { name: 'Send Login Link' }).click();
  await expect(page.getByText(`Sent login link to ${email}`)).toBeVisible();
  const mail = await outboxMail(request, access, email, /login link|password|account/);
  expect(mail.text).toContain('/login?token=');

  await page.getByLabel('First Name').fill('Edith');
  await page.getByLabel('Last Name').fill('Edited');
  await page.getByLabel('Phone').fill('(415) 555-0199');
  await page.getByLabel('Zip Code').fill('94107');
  await page.getByRole('button', { name: 'Save User' }).click();
  await expect(page.getByText('User successfully changed')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Edith Edited' })).toBeVisible();
  // What staff did is on the customer's page (audit trail).
  const actions = page.locator('.card').filter({ hasText: 'Staff Actions' });
  await expect(actions.getByRole('cell', { name: 'Changed account details' })).toBeVisible();
  await expect(actions.getByRole('cell', { name: 'Took a payment at the desk' })).toBeVisible();
  await expect(actions.getByRole('cell', { name: 'Sent a login link' })).toBeVisible();

  await page.getByRole('button', { name: 'View History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  await expect(history.getByRole('columnheader', { name: 'Seat' })).toBeVisible();
  await expect(history.getByRole('cell', { name: 'Paid' })).toBeVisible();
  await expectAccessible(page);
  await history.getByRole('button', { name: 'Close' }).first().click();
  await expect(history).toHaveCount(0);

  // The card, then the subscription with the customer's card, back to this page.
  await page.getByLabel('Card Number').fill('4242424242424242');
  await page.getByLabel('Expiry Month (MM)').fill('12');
  await page.getByLabel('Expiry Year (YY)').fill('34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Add Payment Method' }).click();
  await expect(page.getByText(/ending in 4242/)).toBeVisible();
  await page.getByRole('button', { name: 'Add Subscription' }).click();
  await expect(page).toHaveURL(/\/subscription\/add\?userId=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add Subscription' })).toBeVisible();
  await expect(page.getByText(/Paying with .* ending in 4242/)).toBeVisible();
  await expectAccessible(page);
  const join = page.getByRole('button', { name: /^Join the / });
  await expect(join).toBeEnabled();
  await join.click();
  await expect(page).toHaveURL(new RegExp(`/admin/user/${userId}$`));
  await expect(page.getByRole('switch', { name: 'Active Subscription' })).toBeChecked();

  // Delete: the typed confirmation, then back.
  await page.getByRole('button', { name: 'Delete User and Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete User' });
  const remove = confirm.getByRole('button', { name: 'Delete User' });
  await expect(remove).toBeDisabled();
  await confirm.getByLabel(/to confirm/).fill(email);
  await remove.click();
  await expect(page.getByText('Successfully deleted')).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(`/admin/user/${userId}`));
});

test('the admin user page works on a phone and refuses to delete staff', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const access = await staffToken(request);
  const bobId = await findUserId(request, access, 'bob@paddock.local');
  await logIn(page, STAFF);
  await page.goto(`/admin/user/${bobId}`);
  await expect(page.getByText(/bob@paddock\.local/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'View History' })).toBeVisible();
  // The card widget mounts after its delay.
  await expect(page.getByRole('heading', { name: 'Payment Method' })).toBeVisible();
  await expectAccessible(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-user-phone.png`, fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  const staffId = await findUserId(request, access, 'staff@paddock.local');
  await page.goto(`/admin/user/${staffId}`);
  await expect(page.getByRole('switch', { name: 'Admin' })).toBeChecked();
  await expect(
    page.getByRole('button', { name: 'Delete User and Cancel Subscription' }),
  ).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send Login Link' })).toBeDisabled();
  // Opened directly (no history inside the app): Back goes to the planner.
  await page.getByRole('button', { name: '‹ Back' }).click();
  await expect(page).toHaveURL(/\/admin\/seats$/);
});
