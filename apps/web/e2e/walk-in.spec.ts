import type { Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, shot } from './desk-support';

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

/** Counts the clicks and taps of the desk task (typing is not a click). */
function clickCounter() {
  let clicks = 0;
  return {
    click: async (locator: ReturnType<Page['getByRole']>) => {
      clicks += 1;
      await locator.click();
    },
    get count() {
      return clicks;
    },
  };
}

for (const [device, viewport, seat, time, contact] of [
  ['desktop', { width: 1440, height: 900 }, 'Cockpit 3', '3:00 PM', 'phone'],
  ['tablet', TABLET, 'Cockpit 2', '3:30 PM', 'email'],
] as const) {
  test(`${device}: a walk-in without an account rides now: created at the desk, booked, settled`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await logIn(page, DEMO_STAFF);
    await page.goto('/admin/seats');
    await expect(page.getByRole('heading', { level: 1, name: 'Daily Planner' })).toBeVisible();
    const name = `Wanda ${device === 'desktop' ? 'Walker' : 'Tablet'}${Date.now() % 100000}`;
    const clicks = clickCounter();

    await clicks.click(cell(page, seat, time));
    await clicks.click(page.getByRole('button', { name: 'With Selected (1)' }));
    await clicks.click(page.getByRole('button', { name: 'Book for a Customer' }));
    const book = page.getByRole('dialog');
    await book.getByLabel('Customer').fill(name);
    await expect(book.getByText('No users found.')).toBeVisible();
    await clicks.click(book.getByRole('button', { name: 'New Customer' }));
    // The search text is already the name; only a way to reach them is asked for.
    await expect(book.getByLabel('First name')).toHaveValue(name.split(' ')[0]);
    await expect(book.getByLabel('Last name')).toHaveValue(name.split(' ')[1]);
    if (contact === 'phone') await book.getByLabel('Phone').fill(`555 01${Date.now() % 100000}`);
    else {
      await book
        .getByLabel('E-mail', { exact: true })
        .fill(`${name.replace(' ', '.').toLowerCase()}@example.com`);
      await clicks.click(book.getByLabel('E-mail them a link to set a password'));
    }
    await expectAccessible(page);
    await shot(page, `walk-in-form-${device}`);
    await clicks.click(book.getByRole('button', { name: 'Create Customer' }));
    await expect(page.getByText(new RegExp(`^Created ${name}\\.`))).toBeVisible();
    if (contact === 'email')
      await expect(page.getByText(/We e-mailed .* a link to set a password\./)).toBeVisible();
    await expect(book.getByRole('radio', { name: new RegExp(name) })).toBeChecked();
    await shot(page, `walk-in-created-${device}`);
    const markPaid = page.getByRole('button', { name: 'Mark All Outstanding as Paid' });
    if (device === 'desktop') {
      // Booked to pay later, then settled from the customer's page (found by name).
      await clicks.click(book.getByRole('button', { name: 'Book 1 time' }));
      await expect(page.getByText('Booked, to pay at the desk.')).toBeVisible();
      await expect(cellBox(page, seat, time)).toContainText(name);
      await expect(cellBox(page, seat, time)).toContainText('Unpaid');
      console.log(`[measure] ${device}: walk-in created and booked in ${clicks.count} clicks`);
      expect(clicks.count).toBeLessThanOrEqual(7);
      await page.getByLabel('Search users').fill(name);
      await clicks.click(page.getByRole('button', { name: 'Search', exact: true }));
      await clicks.click(page.getByRole('dialog').getByRole('link', { name: new RegExp(name) }));
      await clicks.click(markPaid);
    } else {
      // Rides now, pays now: Book and Take Payment opens Take Payment right in the planner, for
      // exactly this sale (decision 0116).
      await clicks.click(book.getByRole('button', { name: 'Book and Take Payment' }));
      await expect(page.getByText('Booked, to pay at the desk.')).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/seats/);
    }
    const pay = page.getByRole('dialog', { name: 'Take Payment' });
    await clicks.click(pay.getByRole('radio', { name: 'Cash' }));
    await clicks.click(pay.getByRole('button', { name: 'Continue' }));
    await clicks.click(
      page
        .getByRole('dialog', { name: 'Confirm Payment' })
        .getByRole('button', { name: 'Confirm Payment' }),
    );
    await expect(
      page.getByText('All outstanding line items have been marked as Paid'),
    ).toBeVisible();
    if (device === 'desktop') await expect(markPaid).toBeDisabled();
    else await expect(cellBox(page, seat, time)).not.toContainText('Unpaid');
    console.log(`[measure] ${device}: walk-in created, booked and paid in ${clicks.count} clicks`);
    expect(clicks.count).toBeLessThanOrEqual(device === 'desktop' ? 12 : 10);
    await shot(page, `walk-in-settled-${device}`);
  });
}

test('a walk-in from the planner user search, when the name has no account', async ({ page }) => {
  await logIn(page, DEMO_STAFF);
  await page.goto('/admin/seats');
  const name = `Sid Search${Date.now() % 100000}`;
  await page.getByLabel('Search users').fill(name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByRole('dialog');
  await expect(results.getByText('No users found.')).toBeVisible();
  await results.getByRole('button', { name: 'New Customer' }).click();
  await results.getByLabel('Phone').fill(`555 02${Date.now() % 100000}`);
  await results.getByRole('button', { name: 'Create Customer' }).click();
  await results.getByRole('link', { name: new RegExp(name) }).click();
  await expect(page).toHaveURL(/\/admin\/user\/\d+$/);
  await expect(page.getByLabel('First name')).toHaveValue('Sid');
});
