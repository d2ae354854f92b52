import { expect, test } from './fixtures';
import { bookingDate, cellName, pickDate, signIn, signUp } from './booking-support';

const TOO_SHORT = 'VR Rig seats are booked for at least 2 hours in a row.';

test('a half-hour on a VR seat says its 2-hour minimum and cannot go to checkout', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'vr-minimum');
  await signIn(page, customer);
  const day = bookingDate(6);
  await page.goto('/reservations/all');
  await pickDate(page, day);
  await page.getByRole('button', { name: cellName('VR Rig 1', day, '3:00 PM', 'Free') }).click();
  await expect(page.getByText(TOO_SHORT)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Checkout' })).toBeDisabled();
  await page.screenshot({ path: 'test-results/vr-minimum-desktop.png' });
  for (const time of ['3:30 PM', '4:00 PM', '4:30 PM'])
    await page.getByRole('button', { name: cellName('VR Rig 1', day, time, 'Free') }).click();
  await expect(page.getByText(TOO_SHORT)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Checkout' })).toBeEnabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole('button', { name: cellName('VR Rig 1', day, '4:30 PM', 'Selected') })
    .click();
  await page
    .getByRole('button', { name: cellName('VR Rig 1', day, '4:00 PM', 'Selected') })
    .click();
  await expect(page.getByText(TOO_SHORT)).toBeVisible();
  await page.screenshot({ path: 'test-results/vr-minimum-phone.png' });
});
