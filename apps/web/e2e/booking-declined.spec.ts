import { expect, expectAccessible, test } from './fixtures';
import {
  balanceOf,
  bookingDate,
  cellName,
  fillCard,
  pickDate,
  signIn,
  signUp,
  upcomingOf,
} from './booking-support';

test('a card that declines ends in Booking Error; adding a good card pays the balance', async ({
  page,
  request,
  consoleGuard,
}) => {
  // The declined charge answers 402 on purpose.
  consoleGuard.allow(/status of 402/);
  const customer = await signUp(request, 'declined');
  await signIn(page, customer);
  const day = bookingDate(8);

  await page.goto('/reservations/all');
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName('Cockpit 5', day, '7:00 PM', 'Free') }).click();
  await page.getByRole('button', { name: 'Checkout' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.getByText('Your card will not be charged yet')).toBeVisible();
  // 4000 0000 0000 0341 attaches, then every charge is declined.
  await fillCard(checkout, '4000 0000 0000 0341', 'Save Card');
  await expect(checkout.getByText('Paying with Visa ending in 0341.')).toBeVisible();
  await checkout.getByRole('button', { name: 'Reserve' }).click();

  const failed = page.getByRole('dialog', { name: 'Booking Error' });
  await expect(failed).toBeVisible();
  await expect(failed).toContainText(
    'Your reservation could not be completed, there were issues processing your card. Your card was declined.',
  );
  await expect(failed.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expectAccessible(page);

  // The seat is held, unpaid: an outstanding balance of $29.40.
  expect(await balanceOf(request, customer)).toBe(2940);
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 5', slot: `${day}T19:00`, paid: false }),
  ]);

  await failed.getByRole('button', { name: 'Review Payment Method' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const upcoming = page.getByRole('table').filter({ hasText: 'Date and Time' });
  await expect(upcoming.getByText('Unpaid')).toBeVisible();
  await page.getByRole('button', { name: 'Update Payment Method' }).click();
  await fillCard(page, '4242 4242 4242 4242', 'Update Payment Method');
  await expect(page.getByText('Your payment method has been saved.')).toBeVisible();

  await expect.poll(() => balanceOf(request, customer)).toBe(0);
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 5', paid: true }),
  ]);
  await page.reload();
  await expect(upcoming.getByRole('cell', { name: 'Cockpit 5', exact: true })).toBeVisible();
  await expect(upcoming.getByText('Unpaid')).toHaveCount(0);
});
