import { expect, expectAccessible, test } from './fixtures';
import { bearer, bookingDate, saveCardViaApi, signIn, signUp } from './booking-support';

test('cancelling an hour says what comes back once, with the sum', async ({ page, request }) => {
  const customer = await signUp(request, 'cancel-hour');
  await saveCardViaApi(request, customer, '4242424242424242');
  // An hour (two half-hours) on one seat, paid through the checkout, inside the free window.
  const day = bookingDate(19);
  const seats = (await (await request.get('/api/calendars')).json()) as {
    results: { id: number; name: string }[];
  };
  let paid: { total_cents: number; seat: string } | null = null;
  for (const seat of seats.results) {
    const quote = await request.post('/api/reservations/checkouts/quote', {
      headers: bearer(customer),
      data: {
        reservations: ['13:00', '13:30'].map((hhmm) => ({
          calendar: seat.id,
          slot: `${day}T${hhmm}`,
        })),
      },
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
  expect(paid).not.toBeNull();
  const amount = `$${(paid!.total_cents / 100).toFixed(2)}`;

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, customer);
  await page.goto('/dashboard');
  const upcoming = page.getByRole('heading', { name: 'Upcoming Reservations' }).locator('..');
  await upcoming.getByRole('button', { name: new RegExp(`^Cancel ${paid!.seat}`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this reservation?' });
  await expect(dialog.getByText('Half-hour 2 of 2')).toBeVisible();
  await expect(dialog.getByText(`In all: ${amount} back.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel Reservation' }).click();

  // One sentence per way back, the amount summed: not "$x back … $x back …" (issue 30).
  const message = page.getByRole('status').filter({ hasText: 'Your reservation is cancelled.' });
  await expect(message).toContainText(
    `Your reservation is cancelled. ${amount} back to your Visa ending 4242.`,
  );
  await expect(message).not.toContainText(/back to your Visa ending 4242.*back to your Visa/);
  await expectAccessible(page);
  await page.screenshot({ path: '/tmp/c1-cancel-hour.png' });
});
