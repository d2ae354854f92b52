import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { bearer, saveCardViaApi, signIn, signUp } from './booking-support';
import { renewNow } from './renew-now';
import { outboxMail } from './outbox-mail';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

/** The link of the renewal mail sent to `email`, read from the outbox as the owner. */
async function authenticateLinkFor(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post('/api/auth/token', { data: OWNER });
  const { access } = (await login.json()) as { access: string };
  const mail = await outboxMail(request, access, email, /renewal payment failed/);
  const link = /https?:\/\/\S+\/charges\/\d+\/authenticate/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  return link;
}

// A member whose card now asks for 3-D Secure on every charge (4000 0027 6000 3184): the renewal,
// made without them, cannot go through; the mail's link runs the challenge and the member is back
// in good standing with the month's credits (decision 0085).
test('a club renewal that needs authentication is finished from the e-mailed link', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const customer = await signUp(request, 'renew3ds');
  await saveCardViaApi(request, customer, '4242 4242 4242 4242');
  const joined = await request.post('/api/users/me/charges/credits_enroll', {
    data: { credits_amount: 1000 },
    headers: bearer(customer),
  });
  expect(joined.status()).toBe(200);
  await saveCardViaApi(request, customer, '4000 0027 6000 3184');

  // The renewal pass, without the member: their bank wants them there.
  expect((await renewNow(customer.id, baseURL!)).declined).toBeGreaterThanOrEqual(1);

  await signIn(page, customer);
  await page.goto('/dashboard');
  const panel = page.getByRole('region', { name: /Apex Club/ });
  await expect(
    panel.getByText(
      "We couldn't renew your membership: your last payment did not go through. Please review your payment method.",
    ),
  ).toBeVisible();

  const link = await authenticateLinkFor(request, customer.email);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/charges\/\d+\/authenticate/);
  await expect(page.getByText('Your payment is complete. Thank you!')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(panel.getByText('Member', { exact: true })).toBeVisible();
  await expect(panel.getByText(/^2000 credits \(worth \$200\.00\)/)).toBeVisible();
  await expectAccessible(page);
  const me = await request.get('/api/users/me', { headers: bearer(customer) });
  expect(((await me.json()) as Record<string, unknown>).credits_subscription_in_good_standing).toBe(
    true,
  );
});
