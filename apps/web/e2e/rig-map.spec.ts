import crypto from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { WebSocket } from 'ws';
import { expect, expectAccessible, logIn, test } from './fixtures';
import { TABLET, openAllDay, shot, staffWith } from './desk-support';

type Headers = { Authorization: string };

/** A rig agent of `seat` on its event's launcher socket, with its own rig key. */
async function rigOnline(request: APIRequestContext, headers: Headers, seat: number, base: string) {
  const { event } = (await (await request.get(`/api/calendars/${seat}`)).json()) as {
    event: number;
  };
  const key = (await (
    await request.post('/api/rig_keys', { headers, data: { calendar: seat } })
  ).json()) as { key: string };
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/launcher/events/${event}/`, {
    headers: { Authorization: `Rig ${key.key}` },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/**
 * Issue 42, the staff rig map (decision 0127), on the desk's tablet and on a phone: a customer in
 * session on a rig whose sim runs, a rig that is offline, and the customer moved to a free rig
 * for the rest of their time, by keyboard, the map following live.
 */
test('rig map: a seat in session, an offline rig, and a move to a free rig', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize(TABLET);
  const tag = `${Date.now() % 1_000_000}`;
  const { location, seats, headers } = await openAllDay(request, tag, ['Bay A', 'Bay B', 'Bay C']);
  const [bayA, , bayC] = seats;
  const [nameA, nameB, nameC] = ['Bay A', 'Bay B', 'Bay C'].map((n) => `${n} ${tag}`);

  // Ada walks in for an hour on Bay A; its rig is connected and its sim running. Bay C's rig is
  // connected and free; Bay B's rig is not there.
  const walkIn = await request.post('/api/planner/walk_in', {
    headers,
    data: {
      calendar: bayA,
      half_hours: 2,
      name: 'Ada Racer',
      email: '',
      method: 'cash',
      idempotency_key: crypto.randomUUID(),
    },
  });
  expect(walkIn.ok(), await walkIn.text()).toBe(true);
  const rigA = await rigOnline(request, headers, bayA, baseURL!);
  const rigC = await rigOnline(request, headers, bayC, baseURL!);
  try {
    rigA.send(JSON.stringify({ type: 'state', state: 'launched' }));

    const desk = await staffWith(request, [
      'reservations.change_reservation',
      'leaderboards.can_manage_race_events',
      'user.change_user',
    ]);
    await logIn(page, desk);
    await page.goto(`/admin/rigs?location=${location}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Rig Map' })).toBeVisible();
    const tile = (name: string) => page.getByRole('article', { name });

    // In session: who, the time left; the offline rig says so and cannot be started.
    await expect(tile(nameA)).toContainText('In session');
    await expect(tile(nameA)).toContainText('Ada Racer');
    await expect(tile(nameA)).toContainText(/\d+ (h \d+ )?min left/);
    await expect(tile(nameB)).toContainText('Rig offline');
    await expect(tile(nameB).getByRole('button', { name: `Start ${nameB}` })).toBeDisabled();
    await expect(tile(nameC)).toContainText('Idle');
    await expectAccessible(page);
    await shot(page, 'rig-map-tablet');

    // Move, by keyboard: Tab reaches Bay A's Move; the dialog offers the free connected rig first.
    const move = tile(nameA).getByRole('button', { name: `Move the customer on ${nameA}` });
    for (let i = 0; i < 60 && !(await move.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(move).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Move Ada Racer from ${nameA}` });
    await expect(dialog.getByRole('radio', { name: nameC })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: `${nameB} (rig offline)` })).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: `Move to ${nameC}` }).focus();
    await page.keyboard.press('Enter');
    await expect(
      page.getByText(`Ada Racer moved from ${nameA} for the rest of their time`),
    ).toBeVisible();

    // The map follows: Ada is on Bay C now; Bay A is free.
    await expect(tile(nameC)).toContainText('Ada Racer');
    await expect(tile(nameA)).toContainText('Nobody booked now.');
    // Bay A's sim still runs, with nobody booked: the desk ends it there.
    await expect(tile(nameA)).toContainText('The sim is running with nobody booked.');
    await expectAccessible(page);

    // On a phone: one column, the same tiles, nothing cut off.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(tile(nameC)).toContainText('Ada Racer');
    await expect(tile(nameB)).toContainText('Rig offline');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await shot(page, 'rig-map-phone');
  } finally {
    rigA.close();
    rigC.close();
  }
});
