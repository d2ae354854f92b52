import type { Locator, Page } from '@playwright/test';
import { DEMO_STAFF, expect, expectAccessible, test } from './fixtures';
import {
  bearer,
  bookingDate,
  locationSeats,
  longDate,
  pickDate,
  signIn,
  signUp,
} from './booking-support';

// Issue 30's last phone points (decision 0102), at 390 × 844. Screenshots go to /tmp.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The message shown covers neither the page's title and the navigation bar (the page scrolled to
 * its top, where the title is) nor, where there is one, the sticky bar at the bottom.
 */
async function expectToastClear(page: Page, toast: Locator, shot: string) {
  await expect(toast).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await toast.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  const title = (await page.getByRole('heading', { level: 1 }).first().boundingBox())!;
  const nav = (await page.getByRole('navigation').first().boundingBox())!;
  expect(overlaps(box, title), 'covers the page title').toBe(false);
  expect(overlaps(box, nav), 'covers the navigation bar').toBe(false);
  const bar = page.locator('.paddock-checkout-bar');
  if (await bar.count()) {
    expect(overlaps(box, (await bar.boundingBox())!), 'covers the Checkout bar').toBe(false);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(overlaps((await toast.boundingBox())!, (await bar.boundingBox())!)).toBe(false);
  }
  await page.screenshot({ path: `/tmp/c102-toast-${shot}.png` });
}

/** Words drawn on more than one line in the element's text (a word split across lines). */
function splitWords(target: Locator) {
  return target.evaluate((root) => {
    const split: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) split.push(match[0]);
      }
    }
    return split;
  });
}

test('phone: messages cover neither the title nor the Checkout bar', async ({ page, request }) => {
  const customer = await signUp(request, 'phone-toasts');
  await signIn(page, customer);

  // The booking grid: a start time chosen says "… selected. Press Checkout …".
  const day = bookingDate(11);
  await page.goto('/reservations/all');
  await pickDate(page, day);
  await page.getByRole('button', { name: `Start at 6:00 PM on ${longDate(day)}` }).click();
  const selected = page.getByRole('status').filter({ hasText: 'Press Checkout to review' });
  await expectToastClear(page, selected, 'grid');
  await expectAccessible(page);

  // The dashboard: the profile saved.
  await page.goto('/dashboard');
  await page.getByLabel('First Name').fill('Pat');
  await page.getByLabel('Last Name').fill('Racer');
  await page.getByLabel('Phone').fill('3105550123');
  await page.getByLabel('Zip Code').fill('90012');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Your profile has been saved.' });
  await expectToastClear(page, saved, 'dashboard');

  // A form page: the same message on /profile.
  await page.goto('/profile');
  await page.getByLabel('Last Name').fill('Rider');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expectToastClear(page, saved, 'form');
  await expectAccessible(page);
});

test('phone: the booking grid splits no word and keeps seven seats in view', async ({
  page,
  request,
}) => {
  const customer = await signUp(request, 'phone-words');
  await signIn(page, customer);
  const day = bookingDate(12);
  const { location: downtown, seats } = await locationSeats(request);
  // The long labels: a blackout ("Unavailable") and the customer's own unpaid seat.
  const staff = (await (await request.post('/api/auth/token', { data: DEMO_STAFF })).json()) as {
    access: string;
  };
  const blackout = await request.post('/api/reservations', {
    headers: { Authorization: `Bearer ${staff.access}` },
    data: { calendar: seats[1].id, slot: `${day}T19:00`, is_blackout: true },
  });
  expect(blackout.status(), await blackout.text()).toBe(201);
  const own = await request.post('/api/reservations', {
    headers: bearer(customer),
    data: { calendar: seats[2].id, slot: `${day}T19:00` },
  });
  expect(own.status(), await own.text()).toBe(201);

  await page.goto(`/reservations/all?location=${downtown.id}`);
  await pickDate(page, day);
  const grid = page.getByRole('grid', { name: /^Simulators and times on / });
  const unavailable = grid.getByRole('button', { name: /, 7:00 PM: Unavailable$/ });
  await unavailable.scrollIntoViewIfNeeded();
  await expect(unavailable).toBeVisible();
  await expect(grid.getByRole('button', { name: /, 7:00 PM: You, Pending$/ })).toBeVisible();

  // No word of a cell or a seat's name drawn on two lines.
  const row = grid
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /, 7:00 PM: Unavailable$/ }) });
  for (const target of [row, grid.getByRole('row').first()])
    expect(await splitWords(target)).toEqual([]);
  // A word cut short keeps its full text in the cell's name.
  await expect(unavailable).toHaveAccessibleName(/Unavailable$/);
  await expect(grid.getByRole('columnheader').nth(1)).toHaveAttribute('title', /\S/);

  // Seven seats beside the times, each at least a 44 px target.
  const headers = grid.getByRole('columnheader');
  const count = Math.min(await headers.count(), 8);
  expect(count).toBe(8);
  for (let i = 0; i < count; i++) {
    const box = (await headers.nth(i).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.width).toBeGreaterThanOrEqual(i === 0 ? 40 : 44);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await row.screenshot({ path: '/tmp/c102-grid-row.png' });
  await grid.getByRole('row').first().screenshot({ path: '/tmp/c102-grid-head.png' });
  await expectAccessible(page);
});
