import type { Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, apiToken, shot } from './desk-support';
import { bookingDate, saveCardViaApi, signUp, withoutVrMinimum } from './booking-support';

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

for (const [device, viewport, daysAhead] of [
  ['desktop', { width: 1280, height: 800 }, 26],
  ['tablet', TABLET, 27],
] as const) {
  test(`${device}: the staff booking dialog shows seat, time and price before booking`, async ({
    page,
    request,
  }) => {
    const date = bookingDate(daysAhead);
    const customer = await signUp(request, 'desk-price');
    await page.setViewportSize(viewport);
    await logIn(page, DEMO_STAFF);
    await page.goto(`/admin/seats?date=${date}`);
    await cell(page, 'Cockpit 1', '2:00 PM').check();
    await cell(page, 'Cockpit 1', '2:30 PM').check();
    await page.getByRole('button', { name: 'With Selected (2)' }).click();
    await page.getByRole('button', { name: 'Book for a Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book for a Customer' });
    const booked = dialog.getByRole('table', { name: 'What is booked' });
    await expect(booked.getByRole('row', { name: /Cockpit 1 2:00 PM/ })).toBeVisible();
    await expect(booked.getByRole('row', { name: /Cockpit 1 2:30 PM/ })).toBeVisible();
    await expect(booked).toContainText('Choose a customer to see the price');
    await dialog.getByLabel('Customer').fill(customer.email);
    await dialog.getByRole('radio', { name: new RegExp(customer.email) }).check();
    await expect(booked.getByRole('row', { name: /Cockpit 1 2:00 PM \$25\.00/ })).toBeVisible();
    // The demo venue's $2.00 fee per half-hour, for two (fewer than its threshold).
    await expect(booked.getByRole('row', { name: 'Booking fees $4.00' })).toBeVisible();
    const total = (await booked.locator('tfoot tr').last().locator('td').textContent())!.trim();
    expect(total).toMatch(/^\$\d+\.\d\d$/);
    const confirm = dialog.getByRole('button', { name: `Book 2 times for ${total}` });
    await expect(confirm).toBeEnabled();
    await expectAccessible(page);
    await shot(page, `desk-price-${device}`);
    await confirm.click();
    await expect(page.getByText('Booked, to pay at the desk.')).toBeVisible();
    await expect(cellBox(page, 'Cockpit 1', '2:00 PM')).toContainText('Unpaid');
  });

  test(`${device}: a staff move to a dearer seat charges the difference, as the customer's move does`, async ({
    page,
    request,
  }) => {
    const date = bookingDate(daysAhead);
    const customer = await signUp(request, 'desk-move');
    await saveCardViaApi(request, customer, '4242424242424242');
    const token = await apiToken(request, DEMO_STAFF);
    const day = (await (
      await request.get(`/api/planner?date=${date}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { seats: { id: number; name: string }[] };
    const cockpit = day.seats.find((s) => s.name === 'Cockpit 2')!.id;
    const paid = await request.post('/api/planner/book', {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        user: customer.id,
        slots: [{ calendar: cockpit, slot: `${date}T15:00` }],
        payment: 'card',
      },
    });
    expect(paid.status(), await paid.text()).toBe(201);

    await withoutVrMinimum(request, async () => {
      await page.setViewportSize(viewport);
      await logIn(page, DEMO_STAFF);
      await page.goto(`/admin/seats?date=${date}`);
      await expect(cellBox(page, 'Cockpit 2', '3:00 PM')).toContainText('Paid');
      await cell(page, 'Cockpit 2', '3:00 PM').check();
      await page.getByRole('button', { name: 'With Selected (1)' }).click();
      await page.getByRole('button', { name: 'Move Reservation' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Seat').selectOption({ label: 'VR Rig 1' });
      await expect(dialog.getByLabel('Time')).toHaveValue(`${date}T15:00`);
      const line = dialog.getByText(
        /^You pay \$\d+\.\d\d more, charged to your Visa ending 4242\.$/,
      );
      await expect(line).toBeVisible();
      const amount = /\$\d+\.\d\d/.exec((await line.textContent())!)![0];
      await expectAccessible(page);
      await shot(page, `desk-move-dearer-${device}`);
      await dialog.getByRole('button', { name: 'Move' }).click();
      await expect(
        page.getByText(
          `Moved to VR Rig 1. The difference, ${amount}, was charged to the saved card.`,
        ),
      ).toBeVisible();
    });
    // The customer sees the charge among their own transactions.
    const charges = await request.get('/api/users/me/charges', {
      headers: { Authorization: `Bearer ${customer.access}` },
    });
    expect(JSON.stringify(await charges.json())).toContain('price difference');
  });
}
