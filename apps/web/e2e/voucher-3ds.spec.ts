import { expect, expectAccessible, test } from './fixtures';
import { bearer, saveCardViaApi, signIn, signUp } from './booking-support';

// A gift voucher bought with a card whose bank asks for 3-D Secure on every charge
// (4000 0027 6000 3184, decision 0095): the bank's page, then the code; a failed challenge
// charges nothing, makes no voucher and says so once.

test('a 3-D Secure card buys a voucher through its challenge; a failed challenge charges nothing', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  // The failed challenge's completion answers 400 on purpose.
  consoleGuard.allow(/status of 400/);
  const customer = await signUp(request, 'voucher3ds');
  await saveCardViaApi(request, customer, '4000 0027 6000 3184');
  const friend = `e2e-3ds-friend-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await signIn(page, customer);

  await page.goto('/vouchers/purchase');
  await page.getByLabel('Amount (whole dollars)').fill('30');
  await page.getByRole('checkbox', { name: 'Send it to someone' }).check();
  await page.getByLabel('Recipient Email').fill(friend);
  await page.getByLabel('Your Name').fill('Robin');
  await page.getByRole('button', { name: 'Purchase Voucher' }).click();
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/vouchers\/purchases\/\d+\/authenticated\?payment_intent=ch_/);
  await expect(page.getByRole('heading', { name: 'Your gift voucher is ready' })).toBeVisible();
  await expect(page.getByText(`We've e-mailed the code to ${friend}.`)).toBeVisible();
  await expect(page.getByText('A $30.00 gift voucher. Its code is:')).toBeVisible();
  await expectAccessible(page);

  // A second purchase whose challenge the buyer fails: one message, nothing charged.
  await page.goto('/vouchers/purchase');
  await page.getByLabel('Amount (whole dollars)').fill('40');
  await page.getByRole('button', { name: 'Purchase Voucher' }).click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  );
  await expect(page.getByRole('heading', { name: 'Your gift voucher is ready' })).toHaveCount(0);
  await expectAccessible(page);

  const charges = await request.get('/api/users/me/charges', { headers: bearer(customer) });
  const rows = ((await charges.json()) as { results: { amount_cents: number; errors: string }[] })
    .results;
  expect(rows.filter((c) => c.errors === '').map((c) => c.amount_cents)).toEqual([3000]);
});
