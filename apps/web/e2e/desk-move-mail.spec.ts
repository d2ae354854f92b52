import type { Page } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import {
  OWNER,
  TABLET,
  apiToken,
  customerAccount,
  openAllDay,
  shot,
  staffWith,
  tomorrowIn,
} from './desk-support';
import { outboxMail } from './outbox-mail';

// Issue 41, decision 0116: staff move a customer's booking to another time in the planner, at
// tablet size; the customer's mail in the outbox says the new time, on the venue's clock.

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });

test.use({ viewport: TABLET });

test('a staff move to another time: the customer’s mail says the new time in the venue’s zone', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}m`;
  // A venue far from the browser's and the server's UTC: the mail must read its own clock.
  const { location, seats, timezone, headers } = await openAllDay(
    request,
    tag,
    ['Rig A'],
    'Pacific/Auckland',
  );
  const seat = `Rig A ${tag}`;
  const date = tomorrowIn(timezone);
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

  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, desk);
  await page.goto(`/admin/seats?location=${location}&date=${date}`);
  await cell(page, seat, '3:00 AM').check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  await page.getByRole('button', { name: 'Move Reservation' }).click();
  const dialog = page.getByRole('dialog', { name: /^Move / });
  await dialog.getByLabel('Time').selectOption({ label: '5:30 AM' });
  // The money of the move is shown before Move (the same price: nothing changes hands).
  await expect(dialog.getByRole('heading', { name: 'Price for the customer' })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'desk-move-tablet');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, '5:30 AM') }),
  ).not.toContainText('Free');

  const mail = await outboxMail(
    request,
    await apiToken(request, OWNER),
    customer.email,
    /^Your reservation has moved/,
  );
  expect(mail.subject).toContain(`${seat}, `);
  expect(mail.subject).toMatch(/5:30 AM/);
  const text = mail.text.replace(/\s+/g, ' ');
  expect(text).toMatch(/Now:? [^]*5:30 AM/);
  expect(text).toMatch(/Was:? [^]*3:00 AM/);
  expect(text).toContain('Pacific/Auckland');
  expect(text).toContain('Please come at the new time.');
});
