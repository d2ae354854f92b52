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

test('a card that declines keeps the seat as an outstanding balance; a new card pays it when asked', async ({
  page,
  request,
  consoleGuard,
}) => {
  // Checkout, dashboard, two cards and a payment: longer than one journey on a shared machine.
  test.setTimeout(120_000);
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
  // One state, told the same way everywhere (decision 0096): kept, unpaid, with the amount.
  await expect(failed).toContainText(
    'Your card was declined. Your reservation is kept but not paid: you have an outstanding balance of $29.40. Review your payment method to pay it.',
  );
  await expect(failed).not.toContainText('could not be completed');
  await expect(failed.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: '/tmp/c1-declined.png' });

  // The seat is held, unpaid: an outstanding balance of $29.40.
  expect(await balanceOf(request, customer)).toBe(2940);
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 5', slot: `${day}T19:00`, paid: false }),
  ]);

  await failed.getByRole('button', { name: 'Review Payment Method' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The dashboard is where a customer pays it, on a phone as well.
  await page.setViewportSize({ width: 390, height: 844 });
  const upcoming = page.getByRole('table').filter({ hasText: 'Date and Time' });
  await expect(upcoming.getByText('Unpaid')).toBeVisible();
  const owed = page.getByRole('alert').filter({ hasText: 'Outstanding balance: $29.40' });
  await expect(
    owed.getByText(
      'Your reservation is kept but not paid: you have an outstanding balance of $29.40.',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Update Payment Method' }).click();
  await fillCard(page, '4242 4242 4242 4242', 'Update Payment Method');
  await expect(page.getByText('Your payment method has been saved.')).toBeVisible();

  // Saving the card charged nothing: it asks first.
  await expect(owed.getByText('Pay the outstanding $29.40 now?')).toBeVisible();
  expect(await balanceOf(request, customer)).toBe(2940);
  await expectAccessible(page);
  await page.screenshot({ path: '/tmp/c1-pay-outstanding-phone.png', fullPage: true });
  await owed.getByRole('button', { name: 'Pay $29.40 with Visa ending in 4242' }).click();
  await expect(page.getByText('The outstanding balance has been paid.')).toBeVisible();
  await expect(owed).toHaveCount(0);

  await expect.poll(() => balanceOf(request, customer)).toBe(0);
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 5', paid: true }),
  ]);
  await page.reload();
  // A phone stacks the table's cells under their labels.
  await expect(upcoming).toContainText('Cockpit 5');
  await expect(upcoming.getByText('Unpaid')).toHaveCount(0);
});
