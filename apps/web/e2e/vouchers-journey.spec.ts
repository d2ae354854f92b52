import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { outboxMail, type Mail } from './outbox-mail';
import {
  bookingDate,
  cellName,
  fillCard,
  longDate,
  pickDate,
  signIn,
  signUp,
} from './booking-support';

const ADMIN = { username: 'admin@paddock.local', password: 'paddock-admin' };

/** The newest outbox mail to `to`, read as the demo superuser. */
async function mailTo(request: APIRequestContext, to: string): Promise<Mail> {
  const login = await request.post('/api/auth/token', { data: ADMIN });
  expect(login.ok()).toBe(true);
  const { access } = (await login.json()) as { access: string };
  return outboxMail(request, access, to);
}

test('buy a $25 voucher for a friend, read its e-mail, check its balance, spend it at checkout', async ({
  page,
  request,
  consoleGuard,
}) => {
  // The second balance check of a spent code, and the footer modal's 404, are deliberate.
  consoleGuard.allow(/status of 404/);
  const customer = await signUp(request, 'voucher');
  const friend = `e2e-friend-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await signIn(page, customer);
  const day = bookingDate(8);

  // From the footer; no card yet, so the card form comes first.
  await page.goto('/dashboard');
  await page
    .getByRole('navigation', { name: 'Footer' })
    .getByRole('link', { name: 'Purchase Gift Voucher' })
    .click();
  await expect(page).toHaveURL(/\/vouchers\/purchase$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Purchase Gift Voucher' }),
  ).toBeVisible();
  await expect(
    page.getByText('A card on file is required to purchase a gift voucher. Add one to continue.'),
  ).toBeVisible();
  await expectAccessible(page);
  await fillCard(page, '4242 4242 4242 4242', 'Add Payment Method');

  // The form: an empty amount means $100; sending needs an e-mail and a name.
  const amount = page.getByLabel('Amount (whole dollars)');
  await expect(amount).toBeVisible();
  await expect(page.getByText('Voucher amount: $100.00')).toBeVisible();
  await amount.fill('25');
  await expect(page.getByText('Voucher amount: $25.00')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Send it to someone' }).check();
  await page.getByRole('button', { name: 'Purchase Voucher' }).click();
  await expect(page.getByText("Enter the recipient's email address.")).toBeVisible();
  await expect(page.getByText('Enter your name so the recipient knows who sent it.')).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Recipient Email').fill(friend);
  await page.getByLabel('Your Name').fill('Erin');
  await page.getByLabel('Message (optional)').fill('Happy birthday! Enjoy a race on me.');
  await expect(page.getByText('35/200 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Purchase Voucher' }).click();

  // The code, as the e-mail writes it.
  await expect(page.getByRole('heading', { name: 'Your gift voucher is ready' })).toBeFocused();
  await expect(page.getByText(`We've e-mailed the code to ${friend}.`)).toBeVisible();
  const shown = (await page.locator('p.font-monospace').textContent())!.trim();
  expect(shown).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
  await expectAccessible(page);

  const mail = await mailTo(request, friend);
  expect(mail.subject).toBe('Erin sent you a $25.00 Paddock Sim Racing gift voucher');
  expect(mail.text).toContain(`Code: ${shown}`);
  expect(mail.text).toContain('Amount: $25.00');
  expect(mail.text).toContain('Happy birthday! Enjoy a race on me.');
  const code = shown.replace(/-/g, '');

  // Done goes to the booking screen.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/reservations\/all$/);

  // The footer's balance modal, with the code as the friend might type it.
  const footer = page.getByRole('navigation', { name: 'Footer' });
  await footer.getByRole('button', { name: 'Voucher Balance' }).click();
  const balance = page.getByRole('dialog', { name: 'Voucher Balance' });
  const check = balance.getByRole('button', { name: 'Check Balance' });
  await expect(check).toBeDisabled();
  await balance.getByLabel('Voucher Code').fill(code.toLowerCase());
  await check.click();
  await expect(balance.getByText('The balance of this Voucher is $25.00')).toBeVisible();
  await expectAccessible(page);
  await balance.getByRole('button', { name: 'Close' }).first().click();
  await expect(balance).toBeHidden();

  // Spend it at checkout: $25 seat + $2 fee; the voucher takes $25.
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName('Cockpit 2', day, '4:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.locator('[data-total="subtotal"]')).toContainText('$27.00');
  await checkout.getByLabel('Discount Code').fill(shown);
  await checkout.getByRole('button', { name: 'Apply' }).click();
  await expect(checkout.locator('[data-total="discount"]')).toContainText('-$25.00');
  // $2.00 left, 8.875% tax → $0.18.
  await expect(checkout.locator('[data-total="total"]')).toContainText('$2.18');
  await expectAccessible(page);
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  const done = page.getByRole('dialog', { name: 'All Done' });
  await expect(done).toContainText(`Cockpit 2, ${longDate(day)} at 4:00 PM`);

  // Spent: the balance page says $0.00.
  await page.goto('/vouchers/balance');
  await expect(page.getByRole('heading', { level: 1, name: 'Voucher Balance' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Voucher Code').fill(shown);
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(page.getByText('The balance of this Voucher is $0.00')).toBeVisible();
  await page.getByRole('button', { name: 'Check another code' }).click();
  await page.getByLabel('Voucher Code').fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Check Balance' }).click();
  await expect(page.getByText('Voucher code not found!')).toBeVisible();
});

test('a voucher bought for oneself is mailed to the buyer; Done follows redirect', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'voucher-self');
  await signIn(page, customer);
  await page.goto('/vouchers/purchase?redirect=/laps');
  await fillCard(page, '4242 4242 4242 4242', 'Add Payment Method');
  await page.getByLabel('Amount (whole dollars)').fill('12.5');
  await expect(page.getByText('Voucher amount: $100.00')).toBeVisible();
  await page.getByRole('button', { name: 'Purchase Voucher' }).click();
  await expect(page.getByText("We've e-mailed the code to you too.")).toBeVisible();
  const mail = await mailTo(request, customer.email);
  expect(mail.subject).toBe('Your $100.00 Paddock Sim Racing gift voucher');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(/\/laps$/);
});
