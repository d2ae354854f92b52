import { DateTime } from 'luxon';
import { expect, expectAccessible, logIn, test } from './fixtures';
import {
  VENUE_ZONE,
  bookingDate,
  pickDate,
  saveCardViaApi,
  signIn,
  signUp,
} from './booking-support';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };
const NEW_LOCATION = 'Paddock Riverside';
const SEAT_TYPE = 'Riverside Rig';

test('the owner sets up a location with hours and three seats, and a customer books one', async ({
  page,
  browser,
  request,
  consoleGuard,
}) => {
  // Moving the booked seat is refused with a 400 on purpose (the end of the journey).
  consoleGuard.allow(/status of 400/);
  // A long journey: two people, three seats, two browsers.
  test.slow();
  const day = bookingDate(4);
  const dayName = DateTime.fromISO(day).toFormat('cccc');
  const closedDay = bookingDate(5);

  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Locations & Seats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Locations' })).toBeVisible();
  await page.getByRole('button', { name: 'New Location' }).click();
  await expect(page.getByRole('heading', { name: 'New location' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(NEW_LOCATION);
  await page.getByLabel('Address').fill('7 River Walk, Sacramento, CA');
  await expect(page.getByLabel('Time zone')).toHaveValue(VENUE_ZONE);
  await page.getByLabel('Booking fee per slot (USD)').fill('1.50');

  // Two ranges on the booking day, the second closing after midnight.
  const day1 = page.getByRole('group', { name: dayName });
  await day1.getByRole('button', { name: `Add hours on ${dayName}` }).click();
  await day1.getByLabel(`${dayName} opens`).fill('10:00');
  await day1.getByLabel(`${dayName} closes`).fill('14:00');
  await day1.getByRole('button', { name: `Add hours on ${dayName}` }).click();
  await day1.getByLabel(`${dayName} opens (2)`).fill('13:00');
  await day1.getByLabel(`${dayName} closes (2)`).fill('01:00');
  // A bad address and overlapping hours are named before anything is sent.
  await page.getByLabel('After booking, go to').fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Create Location' }).click();
  await expect(day1.getByText('Opening hours may not overlap.')).toBeVisible();
  await expect(page.getByLabel('After booking, go to')).toHaveAttribute('aria-invalid', 'true');
  await day1.getByLabel(`${dayName} opens (2)`).fill('18:00');
  await page.getByLabel('After booking, go to').fill('/dashboard');

  await page.getByLabel('Date to add').fill(closedDay);
  await page.getByRole('button', { name: 'Add Date' }).click();
  await expect(page.getByRole('group', { name: closedDay })).toContainText('Closed all day');

  // The server's slots for the day: 10:00–13:30 and 18:00–23:30 (after midnight is the next date).
  await page.getByLabel('Preview date').fill(day);
  await page.getByRole('button', { name: 'Preview Slots' }).click();
  await expect(page.getByText(`20 bookable slots on ${day} (${VENUE_ZONE}).`)).toBeVisible();
  const slots = page.getByRole('list', { name: `Slots on ${day}` });
  await expect(slots.getByRole('listitem')).toHaveCount(20);
  await expect(slots.getByRole('listitem').first()).toHaveText('10:00');
  await page.getByLabel('Preview date').fill(closedDay);
  await page.getByRole('button', { name: 'Preview Slots' }).click();
  // Closed all day, yet the night before runs on to 01:00 of that date.
  await expect(page.getByText(`2 bookable slots on ${closedDay} (${VENUE_ZONE}).`)).toBeVisible();
  await expect(page.getByRole('list', { name: `Slots on ${closedDay}` })).toHaveText(
    /00:00\s*00:30/,
  );
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Create Location' }).click();
  await expect(page.getByText('The location has been saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Edit ${NEW_LOCATION}` })).toBeVisible();
  await expect(page.getByLabel('Location', { exact: true })).toHaveValue(/\d+/);

  await page.getByRole('button', { name: 'Add Seat Type' }).click();
  const typeDialog = page.getByRole('dialog', { name: 'Add a seat type' });
  await typeDialog.getByLabel('Type name').fill(SEAT_TYPE);
  await typeDialog.getByLabel('Description').fill('Direct drive wheel, load cell pedals');
  await expectAccessible(page);
  await typeDialog.getByRole('button', { name: 'Save Seat Type' }).click();
  await expect(page.getByText(`The seat type ${SEAT_TYPE} has been saved.`)).toBeVisible();

  for (const name of ['River 1', 'River 2', 'River 3']) {
    await page.getByRole('button', { name: 'Add Seat', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a seat' });
    await dialog.getByLabel('Seat name').fill(name);
    await dialog.getByLabel('Seat type').selectOption({ label: SEAT_TYPE });
    await expect(dialog.getByLabel('Seat location').locator('option:checked')).toHaveText(
      NEW_LOCATION,
    );
    await dialog.getByLabel('Price per slot ($)').fill('30');
    if (name === 'River 1') {
      // A price below zero is refused before it is sent.
      await dialog.getByLabel('Price per slot ($)').fill('-1');
      await dialog.getByRole('button', { name: 'Save Seat' }).click();
      await expect(dialog.getByLabel('Price per slot ($)')).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page);
      await dialog.getByLabel('Price per slot ($)').fill('30');
      // The PC's Steam account (decision 0118): a short id is named on its field, axe clean.
      const steam = dialog.getByLabel('Steam account of this PC (SteamID64)');
      await steam.fill('7656119797107030');
      await dialog.getByRole('button', { name: 'Save Seat' }).click();
      await expect(steam).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page);
      await steam.fill('76561197971070302');
    }
    await dialog.getByRole('button', { name: 'Save Seat' }).click();
    await expect(dialog).toBeHidden();
  }
  const seats = page.getByRole('region', { name: `Seats at ${NEW_LOCATION}` });
  const rows = seats.getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(2)).toContainText('River 2');
  await expect(rows.nth(2)).toContainText('$30.00');
  await expect(rows.nth(2)).toContainText(SEAT_TYPE);
  await expectAccessible(page);
  if (process.env.SHOTS)
    await page.screenshot({ path: `${process.env.SHOTS}/locations.png`, fullPage: true });

  // A customer books River 2 on that day, in its own browser.
  const customer = await signUp(request, 'venue-setup');
  await saveCardViaApi(request, customer, '4242424242424242');
  const found = (await (await request.get('/api/calendars?search=River%202')).json()) as {
    results: { id: number; name: string }[];
  };
  const seat = found.results.find((s) => s.name === 'River 2')!;
  const context = await browser.newContext();
  const customerPage = await context.newPage();
  await signIn(customerPage, customer);
  await customerPage.goto(`/reservations/${seat.id}`);
  await expect(
    customerPage.getByRole('heading', { level: 1, name: 'River 2 Reservations' }),
  ).toBeVisible();
  await pickDate(customerPage, day);
  const times = customerPage.getByRole('listbox', { name: 'Available Times' });
  await expect(times.getByRole('option', { name: '10:00 AM', exact: true })).toBeAttached();
  await expect(times.getByRole('option', { name: '11:30 PM' })).toBeAttached();
  await expect(times.getByRole('option', { name: '2:00 PM', exact: true })).toHaveCount(0);
  await times.selectOption(`${day}T18:00`);
  // Book It! goes through the checkout like every booking (decision 0096); paid, the customer
  // goes where the location's "After booking, go to" says.
  await customerPage.getByRole('button', { name: 'Book It!' }).click();
  await customerPage
    .getByRole('dialog', { name: 'Checkout' })
    .getByRole('button', { name: 'Reserve' })
    .click();
  await expect(customerPage).toHaveURL(/\/dashboard$/);
  await expect(customerPage.getByRole('cell', { name: 'River 2', exact: true })).toBeVisible();
  await context.close();

  // The booked seat cannot move to another location while the booking is ahead.
  await page.getByRole('button', { name: 'Edit seat River 2' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit River 2' });
  await edit.getByLabel('Seat location').selectOption({ label: 'Paddock Downtown' });
  await edit.getByRole('button', { name: 'Save Seat' }).click();
  await expect(
    edit.getByText(
      'This seat has future bookings. Cancel or move them before moving the seat to another location.',
    ),
  ).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
});

test('Locations & Seats on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/locations');
  await expect(page.getByRole('heading', { name: /^Edit / })).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: /^Seats at / })
      .getByRole('row')
      .first(),
  ).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  // Every seat's Edit button shows whole, not cut at the table's scrolling edge.
  const cut = await page
    .getByRole('button', { name: /^Edit seat / })
    .evaluateAll((buttons) =>
      buttons.filter(
        (b) =>
          b.getBoundingClientRect().right >
          b.closest('.table-responsive')!.getBoundingClientRect().right,
      ),
    );
  expect(cut).toHaveLength(0);
  await page.getByRole('button', { name: /^Add hours on Monday/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(/^Monday opens/).last()).toBeVisible();
  if (process.env.SHOTS)
    await page.screenshot({ path: `${process.env.SHOTS}/locations-phone.png`, fullPage: true });
  await expectAccessible(page);
});
