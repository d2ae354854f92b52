import { expect, expectAccessible, test } from './fixtures';
import { bearer, saveCardViaApi, signIn, signUp } from './booking-support';

// Joining the club with a card whose bank asks for 3-D Secure on every charge
// (4000 0027 6000 3184, decision 0095): the bank's page, then the welcome; a failed challenge
// charges nothing, makes no membership and says so once.

test('a 3-D Secure card joins the club through its challenge; a failed challenge charges nothing', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  // The failed challenge's completion answers 400 on purpose.
  consoleGuard.allow(/status of 400/);
  const joiner = await signUp(request, 'club3ds');
  await saveCardViaApi(request, joiner, '4000 0027 6000 3184');
  await signIn(page, joiner);

  await page.goto('/subscription');
  await expect(page.getByText('Paying with Visa ending in 3184.')).toBeVisible();
  const join = page.getByRole('button', { name: 'Join the Apex Club' });
  await expect(join).toBeEnabled();
  await join.click();
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByText('Welcome to the Apex Club! 1000 credits have been added to your account.'),
  ).toBeVisible();
  const member = page.getByRole('region', { name: /Apex Club/ });
  await expect(member.getByText('Member', { exact: true })).toBeVisible();
  await expectAccessible(page);

  // Another customer fails the challenge: one message, nothing charged, no membership.
  const failing = await signUp(request, 'club3dsfail');
  await saveCardViaApi(request, failing, '4000 0027 6000 3184');
  await page.context().clearCookies();
  await page.evaluate((token) => localStorage.setItem('paddock.token', token), failing.access);
  await page.goto('/subscription');
  await expect(page.getByText('Paying with Visa ending in 3184.')).toBeVisible();
  await expect(join).toBeEnabled();
  await join.click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page).toHaveURL(/\/subscriptions\/\d+\/authenticated/);
  await expect(page.getByRole('alert')).toHaveText(
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  );
  await expectAccessible(page);
  const me = await request.get('/api/users/me', { headers: bearer(failing) });
  expect(((await me.json()) as Record<string, unknown>).credits_subscription_exists).toBe(false);
  const charges = await request.get('/api/users/me/charges', { headers: bearer(failing) });
  const rows = ((await charges.json()) as { results: { errors: string }[] }).results;
  expect(rows.filter((c) => c.errors === '')).toEqual([]);
});
