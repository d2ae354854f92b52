import type { Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

test('staff run the day: blackout, delete, a walk-in, a move; a second screen follows live', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await logIn(page, DEMO_STAFF);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Daily Planner' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Daily Planner' })).toBeVisible();
  const grid = page.getByRole('region', { name: /^Planner for Paddock Downtown/ });
  await expect(grid).toBeVisible();
  // The demo day: a paid racer on VR Rig 1, a blackout on VR Rig 2 with its details.
  await page.getByLabel('Filter seats').fill('VR');
  await expect(grid.getByText('Headset cleaning').first()).toBeVisible();
  await expect(grid.getByText('Alice Apex').first()).toBeVisible();
  await grid
    .getByRole('button', { name: /^Details of VR Rig 2/ })
    .first()
    .click();
  const details = page.getByRole('dialog');
  await expect(details).toContainText('Sam Marshal');
  await expect(details).toContainText('VR Rig 2');
  await expectAccessible(page);
  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(details).toBeHidden();
  await page.getByLabel('Filter seats').clear();
  await expect(page.getByRole('region', { name: /, 7 seats$/ })).toBeVisible();

  // A second desk watches the same day.
  const other = await (await browser.newContext()).newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await logIn(other, DEMO_STAFF);
  await other.goto('/admin/seats');
  await expect(cell(other, 'Cockpit 1', '12:00 PM')).toBeVisible();

  // Keyboard only: select two free times, With Selected → Blackout Selected Times.
  await cell(page, 'Cockpit 1', '12:00 PM').focus();
  await page.keyboard.press('Space');
  await cell(page, 'Cockpit 1', '12:30 PM').focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'With Selected (2)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Delete Reservations' })).toBeDisabled();
  await page.getByRole('button', { name: 'Blackout Selected Times' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Notes').fill('Wheel base swap');
  await page.keyboard.press('Tab');
  await page.getByRole('button', { name: 'Blackout', exact: true }).press('Enter');
  await expect(page.getByText('The selected dates have been blacked out')).toBeVisible();
  await expect(cellBox(page, 'Cockpit 1', '12:00 PM')).toContainText('Wheel base swap');
  await expect(cellBox(other, 'Cockpit 1', '12:30 PM')).toContainText('Wheel base swap', {
    timeout: 3000,
  });

  // Delete both, after the confirmation.
  await cell(page, 'Cockpit 1', '12:00 PM').check();
  await cell(page, 'Cockpit 1', '12:30 PM').check();
  await page.getByRole('button', { name: 'With Selected (2)' }).click();
  await page.getByRole('button', { name: 'Delete Reservations' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Successfully deleted')).toBeVisible();
  await expect(cellBox(page, 'Cockpit 1', '12:00 PM')).toContainText('Free');

  // A walk-in: bob, to pay at the desk.
  await cell(page, 'Cockpit 2', '1:00 PM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Book for a Customer' }).click();
  const book = page.getByRole('dialog');
  await book.getByLabel('Customer').fill('bob');
  await book.getByRole('radio', { name: /LateBraker/ }).check();
  await book.getByRole('button', { name: 'Book 1 time' }).click();
  await expect(page.getByText('Booked, to pay at the desk.')).toBeVisible();
  await expect(cellBox(page, 'Cockpit 2', '1:00 PM')).toContainText('LateBraker');
  await expect(cellBox(page, 'Cockpit 2', '1:00 PM')).toContainText('Unpaid');
  await expect(cellBox(other, 'Cockpit 2', '1:00 PM')).toContainText('LateBraker', {
    timeout: 3000,
  });

  // The rig broke: move him to Cockpit 4, then check him in.
  await cell(page, 'Cockpit 2', '1:00 PM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Move Reservation' }).click();
  await page.getByRole('dialog').getByLabel('Seat').selectOption({ label: 'Cockpit 4' });
  await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText('Moved to Cockpit 4.')).toBeVisible();
  await expect(cellBox(page, 'Cockpit 4', '1:00 PM')).toContainText('LateBraker');
  await cell(page, 'Cockpit 4', '1:00 PM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Check In' }).click();
  await expect(cellBox(page, 'Cockpit 4', '1:00 PM')).toContainText('Checked in');
  await expectAccessible(page);
  await other.context().close();

  // Each of those is in the audit trail, with who did it.
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Audit Trail' }).click();
  await page.getByLabel('Area').selectOption({ label: 'Planner' });
  const trail = page.getByRole('table');
  for (const action of [
    'Marked attendance',
    'Moved a reservation',
    'Booked for a customer',
    'Deleted a reservation',
    'Blacked out times',
  ])
    await expect(trail.getByRole('cell', { name: action }).first()).toBeVisible();
  await expect(trail.getByRole('row', { name: /Moved a reservation/ })).toContainText(
    'Sam Marshal',
  );
  await expectAccessible(page);
});

test('the planner on a phone: search a customer, zoom, and the feed link', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, DEMO_STAFF);
  await page.goto('/admin/seats');
  await page.getByRole('searchbox', { name: 'Search users' }).fill('alice');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('dialog');
  await expect(
    results.getByRole('link', { name: /Alice Apex \(alice@paddock\.local\)/ }),
  ).toBeVisible();
  await expectAccessible(page);
  await results.getByRole('button', { name: 'Close' }).click();

  const zoom = page.getByLabel('Zoom');
  await expect(zoom).toHaveAttribute('step', '0.1');
  await expect(zoom).toHaveAttribute('min', '0.1');
  await zoom.fill('0.5');
  await page.reload();
  await expect(page.getByLabel('Zoom')).toHaveValue('0.5');

  await page.getByRole('button', { name: 'Calendar Feed' }).click();
  await page.getByRole('button', { name: 'Get Link' }).click();
  await expect(page.getByLabel('Feed address')).toHaveValue(/\/api\/feed\.ics\?token=/);
});
