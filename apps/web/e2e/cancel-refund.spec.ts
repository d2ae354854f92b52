import { bearer, bookingDate, saveCardViaApi, signIn, signUp } from './booking-support';
import { expect, expectAccessible, test } from './fixtures';

test('a customer cancels from the dashboard, sees what comes back, and finds the refund in the transactions', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'cancel');
  await saveCardViaApi(request, customer, '4242424242424242');
  // Book and pay one seat through the checkout, a week and more ahead (inside the free window).
  const seats = (await (await request.get('/api/calendars')).json()) as {
    results: { id: number; name: string }[];
  };
  let paid: { total_cents: number; seat: string } | null = null;
  for (const seat of seats.results) {
    for (const hhmm of ['15:00', '16:30', '18:00']) {
      const quote = await request.post('/api/reservations/checkouts/quote', {
        headers: bearer(customer),
        data: { reservations: [{ calendar: seat.id, slot: `${bookingDate(11)}T${hhmm}` }] },
      });
      if (!quote.ok()) continue;
      const q = (await quote.json()) as { checkout_id: number; total_cents: number };
      const done = await request.post(`/api/reservations/checkouts/${q.checkout_id}/process`, {
        headers: bearer(customer),
      });
      if (done.ok()) {
        paid = { total_cents: q.total_cents, seat: seat.name };
        break;
      }
    }
    if (paid) break;
  }
  expect(paid).not.toBeNull();
  const amount = `$${(paid!.total_cents / 100).toFixed(2)}`;

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, customer);
  await page.goto('/dashboard');
  const upcoming = page.getByRole('heading', { name: 'Upcoming Reservations' }).locator('..');
  await expect(upcoming).toContainText('Cancellation policy: Free cancellation until 24 hours');
  await upcoming.getByRole('button', { name: new RegExp(`^Cancel ${paid!.seat}`) }).click();

  const dialog = page.getByRole('dialog', { name: 'Cancel this reservation?' });
  await expect(dialog.getByText(`${amount} back to your Visa ending 4242`)).toBeVisible();
  await expect(dialog).toContainText('Free cancellation until 24 hours before your session.');
  await expectAccessible(page);
  // Keyboard: the confirm button is reachable and works with Enter.
  await dialog.getByRole('button', { name: 'Cancel Reservation' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your reservation is cancelled.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(upcoming).toContainText('You have no upcoming reservations.');

  await page.getByRole('button', { name: 'Recent Transactions' }).click();
  const transactions = page.getByRole('dialog', { name: 'Recent Transactions' });
  const refundRow = transactions.getByRole('row').filter({ hasText: 'Refund:' });
  await expect(refundRow).toContainText(`-${amount}`);
  await expect(transactions.getByRole('row').filter({ hasText: 'Booking #' })).toContainText(
    amount,
  );
  await expectAccessible(page);
});
