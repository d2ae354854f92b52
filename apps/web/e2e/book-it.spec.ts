import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';
import {
  bookingDate,
  locationSeats,
  longDate,
  saveCardViaApi,
  signIn,
  signUp,
  upcomingOf,
} from './booking-support';

test('Book It! shows the price and books through the checkout, paid and e-mailed', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'bookit');
  await saveCardViaApi(request, customer, '4242424242424242');
  await signIn(page, customer);
  const seat = (await locationSeats(request)).seats.find((s) => s.name === 'Cockpit 4')!;
  const day = bookingDate(20);

  // The seat's own page, on that day at 9:30 PM (the link a waitlist offer uses).
  await page.goto(`/reservations/${seat.id}?slot=${day}T21:30`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cockpit 4 Reservations' }),
  ).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Available Times' })).toHaveValue(`${day}T21:30`);
  await expect(
    page.getByText(
      'Price: $25.00 per 30 minutes, plus any booking fee and tax, shown before you pay.',
    ),
  ).toBeVisible();
  await expectAccessible(page);

  // Book It! opens the checkout with the price; nothing is booked before Reserve.
  await page.getByRole('button', { name: 'Book It!' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.getByRole('cell', { name: /^Cockpit 4/ })).toBeVisible();
  await expect(checkout.locator('[data-total="total"]')).toContainText('$');
  await expect(checkout.getByText('Paying with Visa ending in 4242.')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `/tmp/c1-book-it-${test.info().project.name}.png` });
  expect(await upcomingOf(request, customer)).toEqual([]);

  await checkout.getByRole('button', { name: 'Reserve' }).click();
  const done = page.getByRole('dialog', { name: 'All Done' });
  await expect(done).toContainText(`Cockpit 4, ${longDate(day)} at 9:30 PM`);
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 4', slot: `${day}T21:30`, paid: true }),
  ]);

  // The confirmation e-mail, as every checkout sends.
  const staff = (await (await request.post('/api/auth/token', { data: DEMO_STAFF })).json()) as {
    access: string;
  };
  await expect
    .poll(async () => {
      const outbox = await request.get('/api/outbox', {
        headers: { Authorization: `Bearer ${staff.access}` },
      });
      const { results } = (await outbox.json()) as { results: { to: string; subject: string }[] };
      return results.some(
        (m) => m.to.includes(customer.email) && m.subject.includes('is confirmed'),
      );
    })
    .toBe(true);
});
