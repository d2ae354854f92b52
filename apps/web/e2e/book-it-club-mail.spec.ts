import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';
import { outboxMail } from './outbox-mail';
import {
  bearer,
  bookingDate,
  DOWNTOWN,
  locationSeats,
  saveCardViaApi,
  signIn,
  signUp,
  upcomingOf,
} from './booking-support';

test('Book It! on club credit books, paid, and sends the booking confirmation', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'bookit-club');
  await saveCardViaApi(request, customer, '4242424242424242');
  const enrolled = await request.post(`/api/users/${customer.id}/charges/credits_enroll`, {
    headers: bearer(customer),
    data: { credits_amount: 1000 },
  });
  expect(enrolled.status(), await enrolled.text()).toBe(200);
  await signIn(page, customer);
  const seat = (await locationSeats(request)).seats.find((s) => s.name === 'Cockpit 3')!;
  const day = bookingDate(21);

  await page.goto(`/reservations/${seat.id}?slot=${day}T20:30`);
  await expect(page.getByRole('listbox', { name: 'Available Times' })).toHaveValue(`${day}T20:30`);
  await expect(page.getByLabel('Club')).toHaveValue(
    String(((await enrolled.json()) as { subscription: { id: number } }).subscription.id),
  );
  await expect(page.getByText('Paid with Apex Club credit.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Book It!' }).click();
  await expect(page.getByText(/^Reservation for .* successfully added!$/)).toBeVisible();
  expect(await upcomingOf(request, customer)).toEqual([
    expect.objectContaining({ calendar_name: 'Cockpit 3', slot: `${day}T20:30`, paid: true }),
  ]);
  await page.screenshot({ path: '/tmp/c102-book-it-club.png' });

  // The same confirmation a checkout sends: the seat and time, its calendar attached.
  const staff = (await (await request.post('/api/auth/token', { data: DEMO_STAFF })).json()) as {
    access: string;
  };
  const mail = await outboxMail(request, staff.access, customer.email, /is confirmed$/);
  expect(mail.subject).toBe(`Your booking at ${DOWNTOWN} is confirmed`);
  expect(mail.text).toContain('Cockpit 3:');
  expect(mail.text).toContain('8:30 PM');
  expect(mail.text).toContain('The attached calendar file adds each visit to your calendar');
});
