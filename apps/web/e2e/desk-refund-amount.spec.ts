import type { Page } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, customerAccount, openAllDay, shot, staffWith, tomorrowIn } from './desk-support';

// Issue 41, decision 0116: Delete Reservations → Full refund says how much goes back and where
// before Delete, and the toast after says the same figure.

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

test.use({ viewport: TABLET });

test('the desk refund with its amount: quoted in the dialog, repeated in the toast', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}r`;
  const { location, seats, timezone, headers } = await openAllDay(request, tag, ['Rig A']);
  const seat = `Rig A ${tag}`;
  const date = tomorrowIn(timezone);
  // A paid booking: sold at the desk by the owner and paid on the card terminal.
  const customer = await customerAccount(request, tag);
  const booked = await request.post('/api/planner/book', {
    headers,
    data: {
      user: customer.id,
      slots: [{ calendar: seats[0], slot: `${date}T03:00` }],
      payment: 'desk',
    },
  });
  expect(booked.ok(), await booked.text()).toBe(true);
  const due = (
    (await booked.json()) as {
      payment_due: { total_cents: number; bookings: { id: number }[] };
    }
  ).payment_due;
  const paid = await request.post(`/api/users/${customer.id}/desk_payments`, {
    headers,
    data: {
      method: 'terminal',
      amount_cents: due.total_cents,
      idempotency_key: `refund-journey-${tag}`,
      reservations: due.bookings.map((b) => b.id),
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  const amount = `$${(due.total_cents / 100).toFixed(2)}`;

  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, desk);
  await page.goto(`/admin/seats?location=${location}&date=${date}`);
  await expect(cellBox(page, seat, '3:00 AM')).toContainText('Paid');

  await cell(page, seat, '3:00 AM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Delete Reservations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Reservations' });
  await dialog.getByLabel('Full refund').check();
  // The amount and where it goes, before Delete.
  const sentence = `${amount} given back at the desk (card terminal).`;
  const quote = dialog.getByRole('region', { name: 'What goes back' });
  await expect(quote).toContainText(sentence);
  await expect(dialog.getByRole('button', { name: 'Delete', exact: true })).toBeEnabled();
  await expectAccessible(page);
  await shot(page, 'desk-refund-quote-tablet');

  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
  // The toast repeats the same figure.
  await expect(page.getByText(`Successfully deleted. ${sentence}`)).toBeVisible();
  await expect(cellBox(page, seat, '3:00 AM')).not.toContainText('Paid');
  await expectAccessible(page);
  await shot(page, 'desk-refund-done-tablet');
});
