import { expect, expectAccessible, test } from './fixtures';
import {
  TABLET,
  deskBookingTomorrow,
  plannerCellBox as cellBox,
  shot,
  withSelectedAsDesk,
} from './desk-support';

// Issue 41, decision 0116: Delete Reservations → Full refund says how much goes back and where
// before Delete, and the toast after says the same figure.

test.use({ viewport: TABLET });

test('the desk refund with its amount: quoted in the dialog, repeated in the toast', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}r`;
  // A paid booking: sold at the desk by the owner and paid on the card terminal.
  const { location, seat, date, customer, due, headers } = await deskBookingTomorrow(
    request,
    tag,
    '03:00',
  );
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

  await withSelectedAsDesk(page, request, { location, date, seat, time: '3:00 AM' });
  await expect(cellBox(page, seat, '3:00 AM')).toContainText('Paid');
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
