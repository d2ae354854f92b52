import type { Page } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, customerAccount, openAllDay, shot, staffWith, tomorrowIn } from './desk-support';

// Issue 41, decision 0116: staff holding only the planner permission sell a seat at the desk and
// take the cash for it, without landing on a 403 page.

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

test.use({ viewport: TABLET });

test('the limited staff member’s sale: booked and paid in cash from the planner, no 403', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}s`;
  const { location, timezone } = await openAllDay(request, tag, ['Rig A']);
  const seat = `Rig A ${tag}`;
  const customer = await customerAccount(request, tag);
  const desk = await staffWith(request, ['reservations.change_reservation']);
  const forbidden: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) forbidden.push(`${r.request().method()} ${r.url()}`);
  });
  await logIn(page, desk);
  await page.goto(`/admin/seats?location=${location}&date=${tomorrowIn(timezone)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Daily Planner' })).toBeVisible();

  await cell(page, seat, '2:00 AM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Book for a Customer' }).click();
  const book = page.getByRole('dialog', { name: 'Book for a Customer' });
  await book.getByLabel('Customer').fill(customer.email);
  await book.getByRole('radio', { name: new RegExp(customer.email) }).check();
  await expectAccessible(page);
  await shot(page, 'limited-sale-book-tablet');
  await book.getByRole('button', { name: 'Book and Take Payment' }).click();
  await expect(page.getByText('Booked, to pay at the desk.')).toBeVisible();

  // Take Payment opens right in the planner, for exactly this sale.
  const pay = page.getByRole('dialog', { name: 'Take Payment' });
  await expect(pay).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/seats/);
  await pay.getByRole('radio', { name: 'Cash' }).check();
  await expectAccessible(page);
  await shot(page, 'limited-sale-pay-tablet');
  await pay.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Payment' });
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Confirm Payment' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('All outstanding line items have been marked as Paid')).toBeVisible();

  // The booking is paid, and nothing on the way answered 403.
  await expect(cellBox(page, seat, '2:00 AM')).toContainText('Paid');
  await expect(cellBox(page, seat, '2:00 AM')).not.toContainText('Unpaid');
  await expect(page.getByText(/It needs:/)).toHaveCount(0);
  expect(forbidden).toEqual([]);
  await expectAccessible(page);
  await shot(page, 'limited-sale-paid-tablet');
});
