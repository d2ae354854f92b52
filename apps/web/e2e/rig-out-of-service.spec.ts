import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, apiToken, shot } from './desk-support';
import { bookingDate, signUp } from './booking-support';

const cell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
const cellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: cell(page, seat, time) });

type Day = { slots: { slot: string }[]; seats: { id: number; name: string }[] };

/** The planner's day through the API, as staff: seat ids by name and the open slots. */
async function plannerDay(request: APIRequestContext, token: string, date: string) {
  const res = await request.get(`/api/planner?date=${date}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBe(true);
  const day = (await res.json()) as Day;
  return { day, seat: (name: string) => day.seats.find((s) => s.name === name)!.id };
}

/**
 * Cockpit 1 breaks with three bookings left on its day: Rae's 12:00 and 12:30 PM, and Cy's
 * 1:00 PM, when every other cockpit is taken (so Cy's is cancelled; Rae's visit moves whole).
 * Early times and the first seats: the planner only renders the rows and columns in view.
 */
async function brokenRig(request: APIRequestContext, date: string) {
  const token = await apiToken(request, DEMO_STAFF);
  const { day, seat } = await plannerDay(request, token, date);
  const rae = await signUp(request, 'rae');
  const cy = await signUp(request, 'cy');
  const filler = await signUp(request, 'filler');
  const book = async (user: number, name: string, time: string) => {
    const res = await request.post('/api/planner/book', {
      headers: { Authorization: `Bearer ${token}` },
      data: { user, slots: [{ calendar: seat(name), slot: `${date}T${time}` }], payment: 'desk' },
    });
    expect(res.status(), await res.text()).toBe(201);
  };
  await book(rae.id, 'Cockpit 1', '12:00');
  await book(rae.id, 'Cockpit 1', '12:30');
  await book(cy.id, 'Cockpit 1', '13:00');
  for (const other of ['Cockpit 2', 'Cockpit 3', 'Cockpit 4', 'Cockpit 5'])
    await book(filler.id, other, '13:00');
  return { day, rae, cy };
}

for (const [device, viewport, daysAhead] of [
  ['desktop', { width: 1280, height: 800 }, 22],
  ['tablet', TABLET, 23],
] as const) {
  test(`${device}: a rig breaks with three bookings left: out of service in one action`, async ({
    page,
    request,
  }) => {
    const date = bookingDate(daysAhead);
    const { day } = await brokenRig(request, date);
    await page.setViewportSize(viewport);
    await logIn(page, DEMO_STAFF);
    await page.goto(`/admin/seats?date=${date}`);
    await expect(cellBox(page, 'Cockpit 1', '12:00 PM')).toContainText('Unpaid');

    let clicks = 0;
    clicks += 1;
    await page.getByRole('button', { name: 'Out of Service… Cockpit 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take Cockpit 1 Out of Service' });
    await expect(dialog.getByText(`${day.slots.length} times will be blacked out.`)).toBeVisible();
    const rows = dialog.getByRole('row');
    await expect(rows.filter({ hasText: '12:00 PM' })).toContainText(
      'Moves to Cockpit 2, same time and price',
    );
    await expect(rows.filter({ hasText: '12:30 PM' })).toContainText('Moves to Cockpit 2');
    await expect(rows.filter({ hasText: '1:00 PM' })).toContainText(
      'No comparable seat free: cancelled',
    );
    await expectAccessible(page);
    await shot(page, `out-of-service-dialog-${device}`);
    clicks += 1;
    await dialog.getByRole('button', { name: 'Take Out of Service' }).click();
    await expect(
      page.getByText('Cockpit 1 is out of service: 2 moved, 1 cancelled.'),
    ).toBeVisible();
    await expect(cellBox(page, 'Cockpit 1', '12:00 PM')).toContainText('Blackout');
    await expect(cellBox(page, 'Cockpit 1', '1:00 PM')).toContainText('Blackout');
    await expect(cellBox(page, 'Cockpit 2', '12:00 PM')).toContainText('Unpaid');
    await expect(cellBox(page, 'Cockpit 2', '12:30 PM')).toContainText('Unpaid');
    await shot(page, `out-of-service-done-${device}`);

    // The old way on this day: each move 5 clicks (tick, With Selected, Move Reservation, seat,
    // Move), the cancel 4 (tick, With Selected, Delete Reservations, Delete), then a tick per
    // free time left and 3 more to black them out; and no e-mail to anyone.
    const before = 2 * 5 + 4 + day.slots.length + 3;
    console.log(
      `[measure] ${device}: a rig breaks with three bookings left: ${before} clicks before, ${clicks} now`,
    );
    expect(clicks).toBe(2);
  });
}

test('shift-click selects a range of one seat, and the range goes out of service', async ({
  page,
}) => {
  const date = bookingDate(24);
  await logIn(page, DEMO_STAFF);
  await page.goto(`/admin/seats?date=${date}`);
  await cell(page, 'Cockpit 2', '1:00 PM').click();
  await cell(page, 'Cockpit 2', '3:00 PM').click({ modifiers: ['Shift'] });
  // 1:00 to 3:00 PM: five half-hours.
  await page.getByRole('button', { name: 'With Selected (5)' }).click();
  await page.getByRole('button', { name: 'Take Seat Out of Service' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take Cockpit 2 Out of Service' });
  await expect(dialog.getByLabel('From')).toHaveValue(`${date}T13:00`);
  await expect(dialog.getByLabel('Until (last time included)')).toHaveValue(`${date}T15:00`);
  await expect(
    dialog.getByText('5 times will be blacked out. No booking is affected.'),
  ).toBeVisible();
  await dialog.getByLabel('What is wrong (shown on the blackouts)').fill('Pedals');
  await dialog.getByRole('button', { name: 'Take Out of Service' }).click();
  await expect(page.getByText('Cockpit 2 is out of service: 0 moved, 0 cancelled.')).toBeVisible();
  await expect(cellBox(page, 'Cockpit 2', '2:00 PM')).toContainText('Pedals');
  await expect(cellBox(page, 'Cockpit 2', '3:30 PM')).toContainText('Free');
});

test('a phone shows the out-of-service dialog usable', async ({ page, request }) => {
  const date = bookingDate(25);
  await brokenRig(request, date);
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, DEMO_STAFF);
  await page.goto(`/admin/seats?date=${date}`);
  await page.getByRole('button', { name: 'Out of Service… Cockpit 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take Cockpit 1 Out of Service' });
  await expect(dialog.getByRole('button', { name: 'Take Out of Service' })).toBeEnabled();
  await shot(page, 'out-of-service-dialog-phone');
});
