import type { Page } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, customerAccount, openAllDay, shot, staffWith, tomorrowIn } from './desk-support';

// Issue 41, decision 0116 (addendum): Mark No-show asks first, and its success message offers
// Undo, reachable from the keyboard, while the no-show gave nothing back.

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

test.use({ viewport: TABLET });

test('Mark No-show asks first and can be undone from its message, by keyboard', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}n`;
  const { location, seats, timezone, headers } = await openAllDay(request, tag, ['Rig A']);
  const seat = `Rig A ${tag}`;
  const date = tomorrowIn(timezone);
  const customer = await customerAccount(request, tag);
  // Booked to pay at the desk: the policy keeps everything for a no-show, nothing goes back.
  const booked = await request.post('/api/planner/book', {
    headers,
    data: {
      user: customer.id,
      slots: [{ calendar: seats[0], slot: `${date}T04:00` }],
      payment: 'desk',
    },
  });
  expect(booked.ok(), await booked.text()).toBe(true);

  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, desk);
  await page.goto(`/admin/seats?location=${location}&date=${date}`);
  await cell(page, seat, '4:00 AM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Mark No-show…' }).click();
  const ask = page.getByRole('dialog', { name: 'Mark No-show' });
  await expect(ask).toContainText('the customer is e-mailed');
  await ask.getByRole('button', { name: 'Mark No-show' }).click();
  await expect(ask).toBeHidden();
  await expect(cellBox(page, seat, '4:00 AM')).toContainText('No-show');

  const message = page.getByRole('status').filter({ hasText: 'Marked as no-show.' });
  const undo = message.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'no-show-undo-offered-tablet');
  await undo.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('No-show undone.')).toBeVisible();
  await expect(cellBox(page, seat, '4:00 AM')).not.toContainText('No-show');
  await expect(cellBox(page, seat, '4:00 AM')).toContainText(customer.email.split('@')[0]);
  await expectAccessible(page);
});
