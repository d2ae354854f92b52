import { expect, expectAccessible, test } from './fixtures';
import {
  bookingDate,
  cellName,
  fillCard,
  longDate,
  pickDate,
  saveCardViaApi,
  signIn,
  signUp,
  upcomingOf,
} from './booking-support';

test('a new customer books one seat at /reservations/all and pays with 4242', async ({
  page,
  request,
  consoleGuard,
}) => {
  // The refused discount code answers 400 on purpose.
  consoleGuard.allow(/status of 400/);
  const customer = await signUp(request, 'one-seat');
  await signIn(page, customer);
  const day = bookingDate(4);

  await page.goto('/reservations/all');
  await expect(page.getByRole('heading', { level: 1, name: 'Book a Simulator' })).toBeVisible();
  await expect(page.getByLabel('Location')).toHaveValue(/\d+/);
  await expect(page.getByLabel('Location').locator('option:checked')).toHaveText(
    'Paddock Downtown',
  );
  // The club alert comes a second after load.
  await expect(page.getByText(/Join the Apex Club and save 20% on every race/)).toBeVisible();

  await pickDate(page, day);
  // Every seat of the venue is free that day: the count is the seats, not the one racer.
  await expect(page.getByText('Excellent! We have 7 simulators available...')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: longDate(day) })).toBeVisible();
  await expectAccessible(page);

  const cell = page.getByRole('button', { name: cellName('Cockpit 1', day, '3:00 PM', 'Free') });
  await cell.click();
  await expect(
    page.getByRole('button', { name: cellName('Cockpit 1', day, '3:00 PM', 'Selected') }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 slot selected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Checkout' }).click();

  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout).toBeVisible();
  await expect(checkout.getByRole('cell', { name: /^Cockpit 1/ })).toBeVisible();
  // $25.00 seat + $2.00 fee, 8.875% tax on $27.00 = $2.39625 → $2.40.
  await expect(checkout.locator('[data-total="subtotal"]')).toContainText('$27.00');
  await expect(checkout.locator('[data-total="tax"]')).toContainText('$2.40');
  await expect(checkout.locator('[data-total="total"]')).toContainText('$29.40');
  await expect(checkout.getByText(/Apex Club members would save/)).toBeVisible();
  await expect(checkout.getByText('Your card will not be charged yet')).toBeVisible();
  await expect(checkout.getByRole('button', { name: 'Terms of Service' })).toBeVisible();
  const reserve = checkout.getByRole('button', { name: 'Reserve' });
  await expect(reserve).toBeDisabled();

  const apply = checkout.getByRole('button', { name: 'Apply' });
  await expect(apply).toBeDisabled();
  await checkout.getByLabel('Discount Code').fill('nosuchcode');
  await expect(checkout.getByLabel('Discount Code')).toHaveValue('NOSUCHCODE');
  await apply.click();
  await expect(
    page.getByText('The discount code you entered was not found or has already been used'),
  ).toBeVisible();
  await expect(checkout.getByLabel('Discount Code')).toHaveValue('');
  await expectAccessible(page);

  await fillCard(checkout, '4242 4242 4242 4242', 'Save Card');
  await expect(checkout.getByText('Paying with Visa ending in 4242.')).toBeVisible();
  await reserve.click();

  const done = page.getByRole('dialog', { name: 'All Done' });
  await expect(done).toBeVisible();
  await expect(done).toContainText(`Cockpit 1, ${longDate(day)} at 3:00 PM`);
  await expect(done.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await expectAccessible(page);
  await done.getByRole('button', { name: 'Book Another' }).click();

  await expect(done).toBeHidden();
  await pickDate(page, day);
  await expect(
    page.getByRole('button', { name: cellName('Cockpit 1', day, '3:00 PM', 'You, Confirmed') }),
  ).toHaveAttribute('aria-disabled', 'true');
  const upcoming = await upcomingOf(request, customer);
  expect(upcoming).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 1', slot: `${day}T15:00`, paid: true }),
  ]);
});

test('two racers book two seats side by side for an hour, by keyboard', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'side-by-side');
  await saveCardViaApi(request, customer, '4242424242424242');
  await signIn(page, customer);
  const day = bookingDate(5);

  await page.goto('/reservations/all');
  await page.getByLabel('Racers').selectOption('2');
  await page.getByLabel('Race Minutes').selectOption('60');
  await pickDate(page, day);
  await expect(page.getByText('Excellent! We have 7 simulators available...')).toBeVisible();

  const start = page.getByRole('button', { name: `Start at 5:00 PM on ${longDate(day)}` });
  await start.focus();
  await page.keyboard.press('Enter');
  for (const seat of ['Cockpit 1', 'Cockpit 2']) {
    for (const time of ['5:00 PM', '5:30 PM']) {
      await expect(
        page.getByRole('button', { name: cellName(seat, day, time, 'Selected') }),
      ).toHaveAttribute('aria-pressed', 'true');
    }
  }
  await expect(page.getByText('4 slots selected', { exact: true })).toBeVisible();

  // In the grid, arrows move and Space toggles: drop 5:30 PM on Cockpit 2, then take it back.
  const grid = page.getByRole('grid', { name: /^Simulators and times on/ });
  await grid
    .getByRole('button', { name: cellName('Cockpit 2', day, '5:30 PM', 'Selected') })
    .focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('3 slots selected', { exact: true })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(
    grid.getByRole('button', { name: cellName('Cockpit 1', day, '5:30 PM', 'Selected') }),
  ).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page.getByText('4 slots selected', { exact: true })).toBeVisible();

  // Tab leaves the grid (one tab stop) for Clear, then Checkout.
  const checkoutButton = page.getByRole('button', { name: 'Checkout' });
  for (
    let i = 0;
    i < 5 && !(await checkoutButton.evaluate((b) => b === document.activeElement));
    i += 1
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(checkoutButton).toBeFocused();
  await page.keyboard.press('Enter');

  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout).toBeVisible();
  await expect(checkout.getByRole('row')).toHaveCount(5);
  // Four half-hours reach the location's threshold (4 × 30 minutes): no booking fees.
  // $100.00 + 8.875% tax ($8.875 → $8.88).
  await expect(checkout.locator('[data-total="fees"]')).toContainText('$0.00');
  await expect(checkout.locator('[data-total="subtotal"]')).toContainText('$100.00');
  await expect(checkout.locator('[data-total="total"]')).toContainText('$108.88');
  await expect(checkout.getByText('Paying with Visa ending in 4242.')).toBeVisible();
  const reserve = checkout.getByRole('button', { name: 'Reserve' });
  for (
    let i = 0;
    i < 15 && !(await reserve.evaluate((b) => b === document.activeElement));
    i += 1
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(reserve).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'All Done' })).toBeVisible();

  const upcoming = await upcomingOf(request, customer);
  expect(upcoming.map((r) => [r.calendar_name, r.slot, r.duration_minutes, r.paid])).toEqual([
    ['Cockpit 1', `${day}T17:00`, 60, true],
    ['Cockpit 2', `${day}T17:00`, 60, true],
  ]);
});

test('phones get the booking screen without sideways page scrolling', async ({ page, request }) => {
  const customer = await signUp(request, 'phone');
  await signIn(page, customer);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/reservations/all');
  await pickDate(page, bookingDate(6));
  await expect(page.getByRole('grid', { name: /^Simulators and times on/ })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test("after paying, a location's post-booking address takes over from All Done", async ({
  page,
  request,
  baseURL,
}) => {
  const staff = await request.post('/api/auth/token', {
    data: { username: 'admin@paddock.local', password: 'paddock-admin' },
  });
  const { access } = (await staff.json()) as { access: string };
  const admin = { Authorization: `Bearer ${access}` };
  const locations = (await (await request.get('/api/locations')).json()) as {
    results: { id: number; name: string }[];
  };
  const brighton = locations.results.find((l) => l.name === 'Paddock Brighton')!;
  const setUrl = (post_booking_url: string) =>
    request.patch(`/api/locations/${brighton.id}`, { data: { post_booking_url }, headers: admin });
  expect((await setUrl(`${baseURL}/leaderboards`)).ok()).toBe(true);
  try {
    const customer = await signUp(request, 'post-booking');
    await saveCardViaApi(request, customer, '4242424242424242');
    await signIn(page, customer);
    const day = bookingDate(9);
    await page.goto(`/reservations/all?location=${brighton.id}`);
    await expect(page.getByLabel('Location').locator('option:checked')).toHaveText(
      'Paddock Brighton',
    );
    await pickDate(page, day);
    await page.getByRole('button', { name: cellName('Cockpit 1', day, '3:00 PM', 'Free') }).click();
    await page.getByRole('button', { name: 'Checkout' }).click();
    const checkout = page.getByRole('dialog', { name: 'Checkout' });
    // Brighton: a 20.00 seat and 1.00 fee, 20% tax.
    await expect(checkout.locator('[data-total="total"]')).toContainText('£25.20');
    await checkout.getByRole('button', { name: 'Reserve' }).click();
    await expect(page).toHaveURL(/\/leaderboards$/);
  } finally {
    await setUrl('');
  }
});
