import type { APIRequestContext } from '@playwright/test';
import {
  bearer,
  bookingDate,
  cellName,
  DOWNTOWN,
  pickDate,
  saveCardViaApi,
  signIn,
  signUp,
  withoutVrMinimum,
} from './booking-support';
import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';
import { outboxMail } from './outbox-mail';

type Seat = { id: number; name: string; location: number };

/** Books and pays (checkout with the saved card) the first of `seats` free at `slot`. */
async function payForOne(
  request: APIRequestContext,
  customer: Parameters<typeof bearer>[0],
  seats: { id: number; name: string }[],
  slot: string,
) {
  for (const seat of seats) {
    const quote = await request.post('/api/reservations/checkouts/quote', {
      headers: bearer(customer),
      data: { reservations: [{ calendar: seat.id, slot }] },
    });
    if (!quote.ok()) continue;
    const q = (await quote.json()) as { checkout_id: number };
    const done = await request.post(`/api/reservations/checkouts/${q.checkout_id}/process`, {
      headers: bearer(customer),
    });
    if (done.ok()) return { seat: seat.name, slot };
  }
  throw new Error(`no seat could be booked at ${slot}`);
}

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
  // Four customers, two dashboards and a booking: longer than one journey on a shared machine.
  test.setTimeout(150_000);
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

  // Their dashboard lists the entry with its place in line.
  await page.goto('/dashboard');
  const waitlist = page.getByRole('heading', { name: 'Waitlist', exact: true }).locator('..');
  await expect(waitlist).toContainText('Number 1 in line.');

  // A second one in line sees their place, and leaves the waitlist from the dashboard.
  const leaving = await signUp(request, 'waitlist-leaves');
  const joined = await request.post('/api/waitlist', {
    headers: bearer(leaving),
    data: { location: downtown.id, slot },
  });
  expect(joined.status()).toBe(201);
  // Another user in the same browser: the next page load reads the new token.
  const switchTo = (who: { access: string }) =>
    page.evaluate((token) => localStorage.setItem('paddock.token', token), who.access);
  await page.setViewportSize({ width: 390, height: 844 });
  await switchTo(leaving);
  await page.goto('/dashboard');
  const theirs = page.getByRole('heading', { name: 'Waitlist', exact: true }).locator('..');
  await expect(theirs).toContainText('Number 2 in line.');
  await expectAccessible(page);
  await theirs.getByRole('button', { name: /^Leave the waitlist for / }).click();
  await expect(page.getByText('You left the waitlist.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waitlist', exact: true })).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });
  await switchTo(waiting);

  // The first customer cancels: the waitlisted one is e-mailed, the seat held for them.
  const cancelled = await request.post(`/api/reservations/${booked.id}/cancel`, {
    headers: bearer(first),
    data: {},
  });
  expect(cancelled.ok()).toBe(true);
  const offer = await outboxMail(request, staff.access, waiting.email, /^A seat freed up at /);
  expect(offer.text).toContain('is held for you until');

  // The seat is held for them: their dashboard says so; anyone else sees it taken.
  await page.goto('/dashboard');
  await expect(
    page.getByRole('heading', { name: 'Waitlist', exact: true }).locator('..'),
  ).toContainText('is held for you until');
  const avail = async (headers: Record<string, string>) =>
    (
      (await (
        await request.get(`/api/calendars/${seats[0].id}/avail?date=${day}`, { headers })
      ).json()) as Record<string, { state: string }>
    )[slot].state;
  expect(await avail(bearer(first))).toBe('taken');
  expect(await avail(bearer(waiting))).toBe('free');

  // "Book it now" opens the held seat on the held day and time, not today (issue 30).
  await page.getByRole('link', { name: 'Book it now' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/reservations/${seats[0].id}\\?slot=${encodeURIComponent(slot)}$`),
  );
  await expect(page.getByRole('listbox', { name: 'Available Times' })).toHaveValue(slot);

  await page.goto(`/reservations/all?location=${downtown.id}`);
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName(seats[0].name, day, '2:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout).toContainText('Cancellation policy: Free cancellation until 24 hours');
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  // Processing charges the card: slow when the shared machine is busy.
  await expect(page.getByRole('dialog', { name: 'All Done' })).toContainText(seats[0].name, {
    timeout: 30_000,
  });
  // Booked: the entry left the customer's waitlist.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Upcoming Reservations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waitlist', exact: true })).toBeHidden();
});

test('a customer moves a booking to another time from the dashboard, keeping the payment', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'move');
  await saveCardViaApi(request, customer, '4242424242424242');
  const seats = (await (await request.get('/api/calendars')).json()) as {
    results: { id: number; name: string }[];
  };
  const paid = await payForOne(request, customer, seats.results, `${bookingDate(12)}T15:00`);
  expect(paid).not.toBeNull();

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, customer);
  await page.goto('/dashboard');
  const upcoming = page.getByRole('heading', { name: 'Upcoming Reservations' }).locator('..');
  await expect(upcoming).toContainText('3:00 PM');
  await upcoming.getByRole('button', { name: new RegExp(`^Move ${paid.seat}`) }).click();

  const dialog = page.getByRole('dialog', { name: 'Move this reservation' });
  await expect(dialog.getByLabel('Simulator')).toHaveValue(/\d+/);
  const time = dialog.getByLabel('Time');
  await time.selectOption({ label: '5:30 PM' });
  await expect(dialog.getByText('Same price: your payment moves with the booking.')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Move Reservation' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your booking has moved.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(upcoming).toContainText('5:30 PM');
  await expect(upcoming).not.toContainText('3:00 PM');
  await expect(upcoming.getByText('Unpaid')).toBeHidden();
});

test('a customer moves a paid booking to a dearer seat and pays the difference by card', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'dearer');
  await saveCardViaApi(request, customer, '4242424242424242');
  const seats = ((await (await request.get('/api/calendars')).json()) as { results: Seat[] })
    .results;
  const vr = seats.find((s) => s.name === 'VR Rig 1')!;
  const cockpits = seats.filter((s) => s.location === vr.location && s.name.startsWith('Cockpit'));
  const slot = `${bookingDate(14)}T14:00`;
  const paid = await payForOne(request, customer, cockpits, slot);

  await withoutVrMinimum(request, async () => {
    await signIn(page, customer);
    await page.goto('/dashboard');
    const upcoming = page.getByRole('heading', { name: 'Upcoming Reservations' }).locator('..');
    await upcoming.getByRole('button', { name: new RegExp(`^Move ${paid.seat}`) }).click();
    const dialog = page.getByRole('dialog', { name: 'Move this reservation' });
    await dialog.getByLabel('Simulator').selectOption({ label: vr.name });
    await dialog.getByLabel('Time').selectOption({ label: '2:00 PM' });
    // The VR rig costs more a half-hour than the cockpit: the difference, tax included.
    await expect(dialog.getByText(/^You pay \D\d+\.\d\d more$/)).toBeVisible();
    await expect(dialog.getByText(/more, charged to your Visa ending 4242\.$/)).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Move Reservation' }).click();
    await expect(page.getByText(/was charged to your card\./)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(upcoming).toContainText(vr.name);
  });
});
