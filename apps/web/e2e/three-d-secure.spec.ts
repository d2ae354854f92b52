import { expect, expectAccessible, test } from './fixtures';
import {
  balanceOf,
  bearer,
  bookingDate,
  cellName,
  fillCard,
  pickDate,
  signIn,
  signUp,
  upcomingOf,
} from './booking-support';

// A customer whose bank asks for 3-D Secure (4000 0027 6000 3184, decision 0085) on the local
// provider: the card is saved through the bank's page, a booking is paid through it, and a
// failed challenge charges nothing and leaves no booking behind.

test('a 3-D Secure card is saved through its challenge, then books and pays; a failed challenge charges nothing', async ({
  page,
  request,
  consoleGuard,
}) => {
  // Three bank pages and three axe runs on a two-core machine shared by many.
  test.setTimeout(240_000);
  // The failed challenge's checkout answers 402 on purpose.
  consoleGuard.allow(/status of 402/);
  const customer = await signUp(request, 'threeds');
  await signIn(page, customer);

  await page.goto('/dashboard');
  await fillCard(page, '4000 0027 6000 3184', 'Add Payment Method');
  // The bank's page (the local provider's own).
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await expect(page.getByText('Saving your card')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/three-d-secure-challenge.png', fullPage: true });
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Your payment method has been saved.')).toBeVisible();
  await expect(page.getByText('Visa ending in 3184')).toBeVisible();

  // Booking: the bank asks again, the customer passes, the booking is paid.
  const day = bookingDate(17);
  await page.goto('/reservations/all');
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName('Cockpit 3', day, '8:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.getByText('Paying with Visa ending in 3184.')).toBeVisible();
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/checkouts\/\d+\/authenticated\?payment_intent=ch_/);
  await expect(page.getByText('Your booking is confirmed and paid.')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/three-d-secure-paid.png', fullPage: true });
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 3', slot: `${day}T20:00`, paid: true }),
  ]);

  // A second booking whose challenge the customer fails: nothing charged, no booking, one message.
  await page.goto('/reservations/all');
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName('Cockpit 3', day, '9:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await page
    .getByRole('dialog', { name: 'Checkout' })
    .getByRole('button', { name: 'Reserve' })
    .click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  );
  await page.screenshot({ path: 'test-results/three-d-secure-failed.png', fullPage: true });
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ slot: `${day}T20:00`, paid: true }),
  ]);
  expect(await balanceOf(request, customer)).toBe(0);
  const charges = await request.get('/api/users/me/charges', { headers: bearer(customer) });
  const paid = ((await charges.json()) as { results?: { errors: string }[] }).results ?? [];
  expect(paid.filter((c) => c.errors === '')).toHaveLength(1);
});
