import {
  bearer,
  bookingDate,
  cellName,
  DOWNTOWN,
  pickDate,
  saveCardViaApi,
  signIn,
  signUp,
} from './booking-support';
import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';

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

test('a waitlisted customer is e-mailed when a seat frees up and books the seat held for them', async ({
  page,
  request,
}) => {
  const staff = (await (await request.post('/api/auth/token', { data: DEMO_STAFF })).json()) as {
    access: string;
  };
  const asStaff = { Authorization: `Bearer ${staff.access}` };
  const day = bookingDate(13);
  const slot = `${day}T14:00`;
  const locations = (await (await request.get('/api/locations')).json()) as {
    results: { id: number; name: string }[];
  };
  const downtown = locations.results.find((l) => l.name === DOWNTOWN)!;
  const seats = (
    (await (await request.get(`/api/calendars?location=${downtown.id}`)).json()) as {
      results: { id: number; name: string }[];
    }
  ).results;

  // The time is full: one seat booked and paid by a first customer, the rest blacked out.
  const first = await signUp(request, 'waitlist-first');
  await saveCardViaApi(request, first, '4242424242424242');
  const quote = await request.post('/api/reservations/checkouts/quote', {
    headers: bearer(first),
    data: { reservations: [{ calendar: seats[0].id, slot }] },
  });
  const processed = await request.post(
    `/api/reservations/checkouts/${((await quote.json()) as { checkout_id: number }).checkout_id}/process`,
    { headers: bearer(first) },
  );
  expect(processed.ok()).toBe(true);
  const booked = ((await processed.json()) as { reservations: { id: number }[] }).reservations[0];
  const blackout = await request.post('/api/planner/blackout', {
    headers: asStaff,
    data: { slots: seats.slice(1).map((s) => ({ calendar: s.id, slot })), notes: 'Full' },
  });
  expect(blackout.ok()).toBe(true);

  const waiting = await signUp(request, 'waitlist-second');
  await saveCardViaApi(request, waiting, '4242424242424242');
  await signIn(page, waiting);
  await page.goto(`/reservations/all?location=${downtown.id}`);
  await pickDate(page, day);
  await page.getByRole('button', { name: 'Tell me when a seat frees up at 2:00 PM' }).click();
  await expect(page.getByText('We will e-mail you when a seat frees up at 2:00 PM.')).toBeVisible();

  // The first customer cancels: the waitlisted one is e-mailed, the seat held for them.
  const cancelled = await request.post(`/api/reservations/${booked.id}/cancel`, {
    headers: bearer(first),
    data: {},
  });
  expect(cancelled.ok()).toBe(true);
  await expect
    .poll(async () => {
      const outbox = await request.get('/api/outbox', { headers: asStaff });
      const { results } = (await outbox.json()) as { results: { to: string; text: string }[] };
      return results.some(
        (m) => m.to.includes(waiting.email) && m.text.includes('is held for you until'),
      );
    })
    .toBe(true);

  await page.reload();
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName(seats[0].name, day, '2:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout).toContainText('Cancellation policy: Free cancellation until 24 hours');
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  await expect(page.getByRole('dialog', { name: 'All Done' })).toContainText(seats[0].name);
});
