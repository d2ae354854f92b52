import type { Page } from '@playwright/test';
import { expect, expectAccessible, openMainNav, test } from './fixtures';
import { bookingDate, locationSeats } from './booking-support';
import { setVenueSettings, signUpWithCard } from './visitor-signup';

/** Book Now's menu (its code loads on first use: open it until its items show). */
async function openBookNow(page: Page) {
  const link = page.getByRole('link', { name: 'Book a Simulator' });
  await expect(async () => {
    if (!(await link.isVisible()))
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Book Now' })
        .click();
    await expect(link).toBeVisible({ timeout: 2_000 });
  }).toPass();
}

// Issue 45, decision 0123: free seats before signing up (the demo venue shows them).
test('a visitor sees free seats without an account, presses Book, signs up and lands on that seat and time', async ({
  page,
  request,
}) => {
  const day = bookingDate(26);
  const seat = (await locationSeats(request)).seats.find((s) => s.name === 'Cockpit 2')!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/leaderboards');
  await openMainNav(page);
  await openBookNow(page);
  await page.getByRole('link', { name: 'Book a Simulator' }).click();
  await expect(page).toHaveURL(/\/free-seats/);
  await expect(page.getByRole('heading', { level: 1, name: 'Free Seats' })).toBeVisible();
  await page.getByLabel('Date').fill(day);
  const times = page.getByRole('list', { name: 'Free times on Cockpit 2' });
  await expect(times).toBeVisible();
  await expect(page.getByText('$25.00 / 30 minutes').first()).toBeVisible();
  await expectAccessible(page);
  // No sideways scrolling on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await times.getByRole('button', { name: 'Cockpit 2 at 8:00 PM' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Book Cockpit 2 at 8:00 PM' }).click();
  await signUpWithCard(page, 'free-seats');

  // Back on the same selection: that seat's page, that day, that time chosen.
  await expect(page).toHaveURL(new RegExp(`/reservations/${seat.id}\\?slot=${day}T20%3A00$`));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cockpit 2 Reservations' }),
  ).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Available Times' })).toHaveValue(`${day}T20:00`);
});

test("with the setting off, Book asks a visitor to sign up in the spec's words", async ({
  page,
  request,
}) => {
  await setVenueSettings(request, { public_availability: false });
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/leaderboards');
    await openMainNav(page);
    await openBookNow(page);
    await page.getByRole('link', { name: 'Book a Simulator' }).click();
    await expect(page).toHaveURL(/\/signup\?redirect=%2Freservations%2Fall/);
    await expect(page.getByText('Sign up or Log in to view sim availability')).toBeVisible();
    expect(
      (await request.get(`/api/public/availability?location=1&date=${bookingDate(26)}`)).status(),
    ).toBe(401);
  } finally {
    await setVenueSettings(request, { public_availability: true });
  }
});
