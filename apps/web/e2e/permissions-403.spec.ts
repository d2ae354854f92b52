import { expect, expectAccessible, logIn, openMainNav, test } from './fixtures';
import { OWNER, TABLET, shot, staffWith } from './desk-support';

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['tablet', TABLET],
] as const) {
  test(`${device}: a desk member sees only their screens, gets a 403 page elsewhere and stays signed in`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const desk = await staffWith(request, ['reservations.change_reservation', 'user.view_user']);
    await logIn(page, desk);

    await openMainNav(page);
    await page.getByRole('button', { name: 'Book Now' }).click();
    const menu = page.getByRole('link', { name: 'Daily Planner' });
    await expect(menu).toBeVisible();
    for (const hidden of ['Venue Settings', 'Audit Trail', 'Staff', 'Launcher', 'Backups'])
      await expect(page.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
    await shot(page, `permissions-menu-${device}`);

    await page.goto('/admin/settings');
    await expect(
      page.getByRole('heading', { level: 1, name: 'You do not have access to this page' }),
    ).toBeVisible();
    await expect(page.getByText('Change venue settings')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/admin/settings');
    await expectAccessible(page);
    await shot(page, `permissions-403-${device}`);

    // Still signed in: the dashboard opens without a login.
    await page.getByRole('link', { name: 'Go to the Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/admin/seats');
    await expect(page.getByRole('heading', { level: 1, name: 'Daily Planner' })).toBeVisible();
  });
}

test('the owner reads permissions in words on the Staff screen', async ({ page, request }) => {
  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, OWNER);
  await page.goto('/admin/staff');
  const row = page.getByRole('row').filter({ hasText: desk.username });
  await expect(row).toContainText('Run the daily planner and change bookings');
  await expect(row).not.toContainText('reservations.change_reservation');
  await row.getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('checkbox', { name: 'Change venue settings' })).toBeVisible();
  await expect(dialog.getByText('venue.change_settings')).toHaveCount(0);
  await shot(page, 'permissions-staff-words');
});
