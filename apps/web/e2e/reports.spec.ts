import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { DOWNTOWN, bearer, bookingDate, saveCardViaApi, signUp } from './booking-support';

const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

type Named = { id: number; name: string };

async function downtownSeat(request: APIRequestContext, name: string) {
  const locations = (await (await request.get('/api/locations?page_size=100')).json()) as {
    results: Named[];
  };
  const downtown = locations.results.find((l) => l.name === DOWNTOWN)!;
  const seats = (await (
    await request.get(`/api/calendars?location=${downtown.id}&page_size=100`)
  ).json()) as { results: Named[] };
  return seats.results.find((s) => s.name === name)!.id;
}

test('a paid booking shows in the owner’s report: revenue, utilisation and top customers', async ({
  page,
  request,
}, testInfo) => {
  // A customer books and pays one half-hour far enough ahead that no other journey books it.
  const customer = await signUp(request, 'report');
  await saveCardViaApi(request, customer, '4242424242424242');
  // A retry books the next day: the first try's booking holds its slot.
  const day = bookingDate(27 + testInfo.retry);
  const calendar = await downtownSeat(request, 'Cockpit 4');
  const quote = await request.post('/api/reservations/checkouts/quote', {
    data: { reservations: [{ calendar, slot: `${day}T21:00` }] },
    headers: bearer(customer),
  });
  expect(quote.status()).toBe(200);
  const { checkout_id } = (await quote.json()) as { checkout_id: number };
  const paid = await request.post(`/api/reservations/checkouts/${checkout_id}/process`, {
    headers: bearer(customer),
  });
  expect(paid.status()).toBe(200);

  await logIn(page, OWNER);
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await page.getByLabel('Location', { exact: true }).selectOption({ label: DOWNTOWN });
  await page.getByLabel('From', { exact: true }).fill(day);
  await page.getByLabel('To', { exact: true }).fill(day);

  // $25.00 seat + $2.00 fee, 8.875% tax on $27.00 → $29.40 paid; the fee shows apart.
  const top = page.getByRole('region', { name: 'Top Customers', exact: true });
  // The report reads every paid booking of the range: on a loaded machine, give it time.
  await expect(top.getByRole('row', { name: new RegExp(customer.email) })).toContainText('$29.40', {
    timeout: 30_000,
  });
  const revenue = page.getByRole('region', { name: 'Revenue', exact: true });
  const row = revenue.getByRole('row', { name: new RegExp(`^${day}`) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(3)).not.toHaveText('$0.00');
  await expect(revenue.getByRole('img', { name: /Revenue chart/ })).toBeVisible();
  // The chart's tooltip: its figures readable (axe checks their contrast while it shows).
  await revenue.getByRole('img', { name: /Revenue chart/ }).hover();
  const tooltip = revenue.locator('.recharts-tooltip-wrapper');
  await expect(tooltip.getByText(/^Vouchers/)).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Seat', { exact: true }).selectOption({ label: 'Cockpit 4' });
  const weekday = new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    timeZone: 'UTC',
  });
  const heat = page.getByRole('table', { name: /Seat utilisation/ });
  await expect(
    heat
      .getByRole('row', { name: new RegExp(`^${weekday}`) })
      .getByRole('cell')
      .nth(21),
  ).toHaveText('50%');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Top Customers CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^top-customers-.*\.csv$/);
  await expectAccessible(page);
  if (process.env.SHOTS)
    await page.screenshot({ path: `${process.env.SHOTS}/reports.png`, fullPage: true });

  // The report is in the URL: a reload (or the link sent to the owner) shows the same one.
  await expect(page).toHaveURL(new RegExp(`from=${day}&to=${day}|to=${day}.*from=${day}`));
  await page.reload();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(day);
  await expect(page.getByLabel('Location', { exact: true })).toHaveValue(/\d+/);
  await expect(
    page.getByLabel('Location', { exact: true }).getByRole('option', { selected: true }),
  ).toHaveText(DOWNTOWN);
  // The report reads every paid booking of the range: on a loaded machine, give it time.
  await expect(top.getByRole('row', { name: new RegExp(customer.email) })).toContainText('$29.40', {
    timeout: 30_000,
  });

  // Shortcuts: one click for the common periods, the pressed one is the period shown.
  const period = page.getByRole('group', { name: 'Period' });
  await period.getByRole('button', { name: 'Yesterday' }).click();
  await expect(period.getByRole('button', { name: 'Yesterday' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const from = await page.getByLabel('From', { exact: true }).inputValue();
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(from);
  await period.getByRole('button', { name: 'This Week' }).click();
  await expect(period.getByRole('button', { name: 'Yesterday' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  // The period is checked before anything is sent.
  await page.getByLabel('To', { exact: true }).fill('2020-01-01');
  await expect(page.getByText('Enter a date on or after the start.')).toBeVisible();
});

test('Reports on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, OWNER);
  await page.goto('/admin/reports');
  await expect(page.getByRole('region', { name: 'Top Customers', exact: true })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  // A day's date stays on one line (it broke after "2026-").
  const day = page.getByRole('region', { name: 'Revenue', exact: true }).getByRole('rowheader');
  const lines = await day
    .first()
    .evaluate((th) => th.clientHeight / parseFloat(getComputedStyle(th).lineHeight));
  expect(lines).toBeLessThan(2);
  await expectAccessible(page);
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/reports-phone.png` });
});
