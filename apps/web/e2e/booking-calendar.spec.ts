import fs from 'node:fs';
import { expect, expectAccessible, test } from './fixtures';
import {
  bearer,
  bookingDate,
  longDate,
  pickDate,
  saveCardViaApi,
  signIn,
  signUp,
  utcStamp,
} from './booking-support';

test('books via /reservations/:calendar, then sees both bookings on the dashboard and downloads the .ics', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'calendar');
  await saveCardViaApi(request, customer, '4242424242424242');
  const day = bookingDate(7);

  // The first booking goes through the checkout API (the checkout screen has its own journey).
  const seats = (await (await request.get('/api/calendars?location=1&page_size=100')).json()) as {
    results: { id: number; name: string }[];
  };
  const cockpit = (name: string) => seats.results.find((s) => s.name === name)!.id;
  const quote = await request.post('/api/reservations/checkouts/quote', {
    data: { reservations: [{ calendar: cockpit('Cockpit 4'), slot: `${day}T18:00` }] },
    headers: bearer(customer),
  });
  expect(quote.ok()).toBe(true);
  const { checkout_id } = (await quote.json()) as { checkout_id: number };
  const processed = await request.post(`/api/reservations/checkouts/${checkout_id}/process`, {
    headers: bearer(customer),
  });
  expect(processed.ok()).toBe(true);

  await signIn(page, customer);
  await page.goto(`/reservations/${cockpit('Cockpit 3')}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Cockpit 3 Reservations' }),
  ).toBeVisible();
  await pickDate(page, day);
  const times = page.getByRole('listbox', { name: 'Available Times' });
  await expect(times).toHaveAttribute('size', '5');
  await expect(times.getByRole('option', { name: '4:00 PM' })).toBeVisible();
  // The nearest free time is chosen by itself; only :00 and :30 are listed.
  await expect(times).toHaveValue(/T\d\d:(00|30)$/);
  await expect(times.getByRole('option', { name: /:(15|45) / })).toHaveCount(0);
  await times.selectOption(`${day}T16:00`);
  const club = page.getByRole('combobox', { name: 'Club' });
  await expect(club).toHaveValue('');
  await expect(club.locator('option:checked')).toHaveText('Pay per race');
  await expectAccessible(page);
  // Book It! goes through the checkout like every booking (decision 0096).
  await page.getByRole('button', { name: 'Book It!' }).click();
  const checkout = page.getByRole('dialog', { name: 'Checkout' });
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  await expect(page.getByRole('dialog', { name: 'All Done' })).toBeVisible();
  await expect(page.getByText(`Reservation for ${day} 4:00 PM successfully added!`)).toBeVisible();
  await expect(times.getByRole('option', { name: '4:00 PM' })).toHaveCount(0);

  const upcoming = page.getByRole('region', { name: 'Upcoming Reservations' });
  await expect(upcoming.getByText(`${longDate(day)} at 4:00 PM`, { exact: true })).toBeVisible();
  await expect(upcoming.getByText('Cockpit 3, 30 minutes')).toBeVisible();
  await expect(upcoming.getByText('Pay per race').first()).toBeVisible();

  await page.goto('/dashboard');
  const table = page.getByRole('table').filter({ hasText: 'Date and Time' });
  await expect(table.getByRole('columnheader', { name: 'Simulator' })).toBeVisible();
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(`${longDate(day)} at 4:00 PM`);
  await expect(rows.nth(1)).toContainText('Cockpit 3');
  await expect(rows.nth(2)).toContainText(`${longDate(day)} at 6:00 PM`);
  await expect(rows.nth(2)).toContainText('Cockpit 4');
  await expectAccessible(page);

  const link = rows.nth(1).getByRole('link', { name: /^Add to Calendar\s+for Cockpit 3/ });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^reservation-\d+\.ics$/);
  const ics = fs.readFileSync((await download.path())!, 'utf8');
  expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
  expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  const unfolded = ics.replace(/\r\n /g, '');
  // The server's calendar: the venue's zone with its VTIMEZONE (decision 0029).
  const local = day.replaceAll('-', '');
  expect(unfolded).toContain(`\r\nDTSTART;TZID=America/Los_Angeles:${local}T160000\r\n`);
  expect(unfolded).toContain(`\r\nDTEND;TZID=America/Los_Angeles:${local}T163000\r\n`);
  expect(unfolded).toContain('\r\nBEGIN:VTIMEZONE\r\nTZID:America/Los_Angeles\r\n');
  expect(unfolded).toMatch(/\r\nUID:visit-\d+@[^\r]+\r\n/);
  expect(unfolded).toContain('\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n');
  expect(unfolded).toContain('\r\nSUMMARY:Cockpit 3 at Paddock Downtown\r\n');
  expect(unfolded).toContain(
    '\r\nLOCATION:Paddock Downtown\\, 100 S Grand Ave\\, Los Angeles\\, CA 90012\r\n',
  );
  expect(unfolded.match(/BEGIN:VEVENT/g)).toHaveLength(1);

  const google = rows.nth(1).getByRole('link', { name: /^Google Calendar\s+for Cockpit 3/ });
  const href = new URL((await google.getAttribute('href'))!);
  expect(href.origin + href.pathname).toBe('https://calendar.google.com/calendar/render');
  expect(href.searchParams.get('action')).toBe('TEMPLATE');
  expect(href.searchParams.get('dates')).toBe(
    `${utcStamp(day, '16:00')}/${utcStamp(day, '16:30')}`,
  );
});
