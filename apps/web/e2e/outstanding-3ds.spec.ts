import { expect, expectAccessible, test } from './fixtures';
import { balanceOf, bearer, bookingDate, saveCardViaApi, signIn, signUp } from './booking-support';

// Paying an outstanding balance with a card whose bank asks for 3-D Secure on every charge
// (4000 0027 6000 3184, decision 0099): the bank's page, back to the dashboard, balance gone.

test('a 3-D Secure card pays the outstanding balance through its challenge', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const customer = await signUp(request, 'outstanding3ds');
  // A declined booking (4000 0000 0000 0341) leaves the balance owed.
  await saveCardViaApi(request, customer, '4000 0000 0000 0341');
  // 22:00: open every day of the week (weekdays open at 12:00), whatever day this runs.
  const day = bookingDate(31);
  const seats = (await (await request.get('/api/calendars?page_size=100')).json()) as {
    results: { id: number }[];
  };
  let owed = 0;
  for (const seat of seats.results) {
    const quote = await request.post('/api/reservations/checkouts/quote', {
      headers: bearer(customer),
      data: { reservations: [{ calendar: seat.id, slot: `${day}T22:00` }] },
    });
    if (!quote.ok()) continue;
    const { checkout_id } = (await quote.json()) as { checkout_id: number };
    const done = await request.post(`/api/reservations/checkouts/${checkout_id}/process`, {
      headers: bearer(customer),
    });
    expect(done.status()).toBe(402);
    owed = await balanceOf(request, customer);
    break;
  }
  expect(owed).toBeGreaterThan(0);
  await saveCardViaApi(request, customer, '4000 0027 6000 3184');
  const amount = `$${(owed / 100).toFixed(2)}`;

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, customer);
  await page.goto('/dashboard');
  const balance = page.getByRole('alert').filter({ hasText: `Outstanding balance: ${amount}` });
  await balance.getByRole('button', { name: `Pay ${amount} with Visa ending in 3184` }).click();
  await expect(page.getByRole('heading', { name: '3-D Secure authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByText('The outstanding balance has been paid.')).toBeVisible();
  await expect(balance).toHaveCount(0);
  // The return parameter left the address: a reload does not ask again.
  await expect(page).not.toHaveURL(/outstanding=authenticated/);
  await expectAccessible(page);
  await expect.poll(() => balanceOf(request, customer)).toBe(0);
  const charges = await request.get('/api/users/me/charges', { headers: bearer(customer) });
  const rows = ((await charges.json()) as { results: { amount_cents: number; errors: string }[] })
    .results;
  expect(rows.filter((c) => c.errors === '').map((c) => c.amount_cents)).toEqual([owed]);
});
