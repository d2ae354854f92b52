import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { bearer, saveCardViaApi, signIn, signUp, type Customer } from './booking-support';

// Cancelling the club within two billing cycles with a card whose bank asks for 3-D Secure on
// every charge (4000 0027 6000 3184, decision 0100): the charge-back goes through the bank's
// page and the cancellation is finished on the dashboard; a failed challenge charges nothing,
// keeps the membership and says so once.

const FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** Joined with 4242 (nothing to authenticate), then the card that always asks saved. */
async function member(request: APIRequestContext, tag: string): Promise<Customer> {
  const customer = await signUp(request, tag);
  await saveCardViaApi(request, customer, '4242 4242 4242 4242');
  const joined = await request.post('/api/users/me/charges/credits_enroll', {
    headers: bearer(customer),
    data: { credits_amount: 1000 },
  });
  expect(joined.status()).toBe(200);
  await saveCardViaApi(request, customer, '4000 0027 6000 3184');
  return customer;
}

async function cancelThroughChallenge(page: Page, answer: 'Complete' | 'Fail') {
  await page.goto('/dashboard');
  const club = page.getByRole('region', { name: /Apex Club/ });
  await club.getByRole('button', { name: 'Cancel Subscription' }).click();
  const modal = page.getByRole('dialog', { name: 'Cancel Subscription' });
  await expect(
    modal.getByText(
      'Cancelling now charges $20.00 to your card: the discounts given, charged back as the terms say.',
    ),
  ).toBeVisible();
  await modal.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: `${answer} authentication` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('a 3-D Secure card pays the charge-back through its challenge; a failed one charges nothing', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  // The failed challenge's cancellation answers 400 on purpose.
  consoleGuard.allow(/status of 400/);
  const leaving = await member(request, 'cancel3ds');
  await signIn(page, leaving);
  await cancelThroughChallenge(page, 'Complete');
  await expect(
    page.getByText(
      'Your Apex Club membership is cancelled. The discounts given, $20.00, were charged back.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Join the Apex Club' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/club-cancel-3ds-passed.png', fullPage: true });
  const me = await request.get('/api/users/me', { headers: bearer(leaving) });
  expect(((await me.json()) as Record<string, unknown>).credits_subscription_exists).toBe(false);

  // Another member fails the challenge: one message, nothing charged, still a member.
  const staying = await member(request, 'cancel3dsfail');
  await page.context().clearCookies();
  await page.evaluate((token) => localStorage.setItem('paddock.token', token), staying.access);
  await cancelThroughChallenge(page, 'Fail');
  await expect(page.getByText(FAILED)).toHaveCount(1);
  const club = page.getByRole('region', { name: /Apex Club/ });
  await expect(club.getByText('Member', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/club-cancel-3ds-failed.png', fullPage: true });
  const charges = await request.get('/api/users/me/charges', { headers: bearer(staying) });
  const rows = ((await charges.json()) as { results: { amount_cents: number; errors: string }[] })
    .results;
  expect(rows.filter((c) => c.amount_cents === 2000 && c.errors === '')).toEqual([]);
});
