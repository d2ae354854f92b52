import { expect, expectAccessible, test } from './fixtures';
import {
  OWNER,
  TABLET,
  apiToken,
  deskBookingTomorrow,
  plannerCellBox as cellBox,
  shot,
  withSelectedAsDesk,
} from './desk-support';
import { outboxMail } from './outbox-mail';

// Issue 41, decision 0116: staff move a customer's booking to another time in the planner, at
// tablet size; the customer's mail in the outbox says the new time, on the venue's clock.

test.use({ viewport: TABLET });

test('a staff move to another time: the customer’s mail says the new time in the venue’s zone', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}m`;
  // A venue far from the browser's and the server's UTC: the mail must read its own clock.
  const { location, seat, date, customer } = await deskBookingTomorrow(
    request,
    tag,
    '03:00',
    'Pacific/Auckland',
  );
  await withSelectedAsDesk(page, request, { location, date, seat, time: '3:00 AM' });
  await page.getByRole('button', { name: 'Move Reservation' }).click();
  const dialog = page.getByRole('dialog', { name: /^Move / });
  await dialog.getByLabel('Time').selectOption({ label: '5:30 AM' });
  // The money of the move is shown before Move (the same price: nothing changes hands).
  await expect(dialog.getByRole('heading', { name: 'Price for the customer' })).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'desk-move-tablet');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(cellBox(page, seat, '5:30 AM')).toContainText(customer.email.split('@')[0]);

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
