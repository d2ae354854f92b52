import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, expectAccessible, test } from './fixtures';
import { bookingDate, locationSeats, longDate } from './booking-support';
import { setVenueSettings, signUpWithCard } from './visitor-signup';

/** The venue's own website: another origin (this machine, another port) serving the test page. */
async function venueSite(html: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  // A failed run leaves nothing holding the worker.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
const TEST_PAGE = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'widget-test-page.html'),
  'utf8',
);

// Issue 45, decision 0123: the widget on a venue's page books into a paid booking.
test('a visitor books from the widget on the venue website into a paid booking', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // Two sites, a signup in three steps and a checkout in one journey: more than the usual minute
  // on a loaded machine.
  test.slow();
  const { location, seats } = await locationSeats(request);
  const seat = seats.find((s) => s.name === 'Cockpit 5')!;
  const day = bookingDate(27);
  const paddock = new URL(baseURL!).origin;
  const site = await venueSite(
    TEST_PAGE.replace('PADDOCK_ORIGIN', paddock).replace('PADDOCK_LOCATION', String(location.id)),
  );
  await setVenueSettings(request, { widget_origins: [site.origin] });
  await page.goto(`${site.origin}/book`);
  const frameElement = page.locator('iframe[title="Book a sim"]');
  const widget = page.frameLocator('iframe[title="Book a sim"]');
  await expect(widget.getByRole('heading', { name: `Book at ${location.name}` })).toBeVisible();
  await widget.getByLabel('Date').fill(day);
  const times = widget.getByRole('list', { name: 'Free times on Cockpit 5' });
  await expect(times).toBeVisible();
  // The loader sized the frame to the page inside it (no inner scroll bar).
  await expect
    .poll(async () => {
      const outer = (await frameElement.boundingBox())!.height;
      const inner = await frameElement
        .contentFrame()
        .locator('html')
        .evaluate((e) => e.scrollHeight);
      return Math.abs(outer - inner) <= 2 && outer > 320;
    })
    .toBe(true);
  await expectAccessible(page);
  // On a phone the widget fits the width its host gives it: no sideways scrolling inside.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() =>
      frameElement
        .contentFrame()
        .locator('html')
        .evaluate((e) => e.scrollWidth <= e.clientWidth),
    )
    .toBe(true);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 720 });

  const opened = context.waitForEvent('page');
  await times.getByRole('button', { name: 'Cockpit 5 at 8:30 PM' }).click();
  const booking = await opened;
  await booking.waitForLoadState();
  await signUpWithCard(booking, 'widget');
  await expect(booking).toHaveURL(new RegExp(`/reservations/${seat.id}\\?slot=${day}T20%3A30$`));
  await expect(booking.getByRole('listbox', { name: 'Available Times' })).toHaveValue(
    `${day}T20:30`,
  );
  await booking.getByRole('button', { name: 'Book It!' }).click();
  const checkout = booking.getByRole('dialog', { name: 'Checkout' });
  await expect(checkout.getByText('Paying with Visa ending in 4242.')).toBeVisible();
  await checkout.getByRole('button', { name: 'Reserve' }).click();
  await expect(booking.getByRole('dialog', { name: 'All Done' })).toContainText(
    `Cockpit 5, ${longDate(day)} at 8:30 PM`,
  );
  await expectAccessible(booking);

  // Taken now: the widget no longer offers it (the change feed let go of the kept answer).
  await page.reload();
  await widget.getByLabel('Date').fill(day);
  await expect(times.getByRole('button', { name: 'Cockpit 5 at 8:00 PM' })).toBeVisible();
  await expect(times.getByRole('button', { name: 'Cockpit 5 at 8:30 PM' })).toHaveCount(0);
  await site.close();
});
