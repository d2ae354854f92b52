import { expect, expectAccessible, test } from './fixtures';
import {
  TABLET,
  deskBookingTomorrow,
  plannerCellBox as cellBox,
  shot,
  withSelectedAsDesk,
} from './desk-support';

// Issue 41, decision 0116 (addendum): Mark No-show asks first, and its success message offers
// Undo, reachable from the keyboard, while the no-show gave nothing back.

test.use({ viewport: TABLET });

test('Mark No-show asks first and can be undone from its message, by keyboard', async ({
  page,
  request,
}) => {
  const tag = `${Date.now() % 100000}n`;
  // Booked to pay at the desk: the policy keeps everything for a no-show, nothing goes back.
  const { location, seat, date, customer } = await deskBookingTomorrow(request, tag, '04:00');
  await withSelectedAsDesk(page, request, { location, date, seat, time: '4:00 AM' });
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
