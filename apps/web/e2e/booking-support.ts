import { test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { expect } from './fixtures';

/** The demo venue's first location (apps/server/src/seed/demo.ts): Los Angeles. */
export const VENUE_ZONE = 'America/Los_Angeles';
export const DOWNTOWN = 'Paddock Downtown';

/**
 * A booking date a few days ahead, so a journey never meets "past" slots whatever the clock
 * says; the demo venue opens 12:00–23:00 every day (weekends longer).
 */
export function bookingDate(daysAhead = 4): string {
  // The phone project runs the same journeys on the same server: two weeks later, other seats.
  const offset = test.info().project.name === 'phone' ? 14 : 0;
  return DateTime.now()
    .setZone(VENUE_ZONE)
    .plus({ days: daysAhead + offset })
    .toISODate()!;
}

/** `Tuesday, November 24, 2026`: how slot cells name their date. */
export const longDate = (iso: string) => DateTime.fromISO(iso).toFormat('cccc, LLLL d, yyyy');

/** A slot cell's accessible name: seat, full date, time and state. */
export const cellName = (seat: string, iso: string, time: string, state: string) =>
  `${seat}, ${longDate(iso)}, ${time}: ${state}`;

/** The instant of a venue-local wall-clock time, as iCalendar writes it in UTC. */
export function utcStamp(iso: string, hhmm: string): string {
  return DateTime.fromISO(`${iso}T${hhmm}`, { zone: VENUE_ZONE })
    .toUTC()
    .toFormat("yyyyMMdd'T'HHmmss'Z'");
}

function ordinal(n: number): string {
  const suffix =
    n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** Chooses a date in the month calendar (react-day-picker names days "November 24th, 2026"). */
export async function pickDate(page: Page, iso: string) {
  const d = DateTime.fromISO(iso);
  const name = new RegExp(`${d.toFormat('LLLL')} ${ordinal(d.day)}, ${d.year}`);
  const calendar = page.getByRole('group', { name: 'Date' });
  const day = calendar.getByRole('button', { name });
  // The month calendar is its own chunk: wait for it before looking for the day.
  await expect(calendar.getByRole('grid')).toBeVisible();
  for (let i = 0; i < 3 && !(await day.isVisible()); i += 1) {
    await calendar.getByRole('button', { name: 'Go to the Next Month' }).click();
  }
  await day.click();
  await expect(day).toHaveAttribute('aria-label', /selected/);
}

export type Customer = { id: number; email: string; access: string };

export type Seat = { id: number; name: string; location: number };

/** A demo location (by name) and its seats, as the API lists them. */
export async function locationSeats(request: APIRequestContext, name = DOWNTOWN) {
  const locations = (await (await request.get('/api/locations')).json()) as {
    results: { id: number; name: string }[];
  };
  const location = locations.results.find((l) => l.name === name)!;
  const seats = (
    (await (await request.get('/api/calendars?page_size=100')).json()) as { results: Seat[] }
  ).results.filter((s) => s.location === location.id);
  return { location, seats };
}

/** A new customer through the API (signup step 0 with a password). */
export async function signUp(request: APIRequestContext, tag: string): Promise<Customer> {
  const email = `e2e-booking-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const answer = await request.post('/api/users', {
    data: { email, password: 'paddock-e2e-pass' },
  });
  expect(answer.status()).toBe(201);
  const { access, user } = (await answer.json()) as { access: string; user: { id: number } };
  return { id: user.id, email, access };
}

export const bearer = (customer: Customer) => ({ Authorization: `Bearer ${customer.access}` });

/**
 * Saves a card through the local provider's tokenizer, as the card form does; a card whose bank
 * asks at setup (decision 0085: 4000 0027 6000 3184…) passes the local provider's challenge.
 */
export async function saveCardViaApi(
  request: APIRequestContext,
  customer: Customer,
  number: string,
) {
  const token = await request.post('/api/payments/local/tokens', {
    data: { number, exp_month: 12, exp_year: 2034, cvc: '123', postal_code: '90012' },
  });
  expect(token.ok()).toBe(true);
  const { id } = (await token.json()) as { id: string };
  const save = async (data: object) => {
    const saved = await request.post(`/api/users/${customer.id}/card`, {
      data,
      headers: bearer(customer),
    });
    expect(saved.ok()).toBe(true);
    return (await saved.json()) as { status?: string; setup_intent: string; challenge_url: string };
  };
  const asked = await save({ token: id });
  if (asked.status !== 'requires_action') return;
  const passed = await request.post(asked.challenge_url, {
    headers: { 'content-type': 'text/plain' },
    data: 'outcome=complete\r\n',
    maxRedirects: 0,
  });
  expect(passed.status()).toBe(303);
  await save({ setup_intent: asked.setup_intent });
}

/** Opens the app already signed in as the customer (the stored session the app restores). */
export async function signIn(page: Page, customer: Customer) {
  await page.addInitScript((token) => {
    // Only the first load: a later logout must stay logged out.
    if (sessionStorage.getItem('e2e-signed-in')) return;
    localStorage.setItem('paddock.token', token);
    sessionStorage.setItem('e2e-signed-in', '1');
  }, customer.access);
}

/** Fills the built-in card form inside `scope` and submits it with `submit`. */
export async function fillCard(scope: Locator | Page, number: string, submit: string) {
  await scope.getByLabel('Card Number').fill(number);
  await scope.getByLabel('Expiry Month (MM)').fill('12');
  await scope.getByLabel('Expiry Year (YY)').fill('34');
  await scope.getByLabel('CVC').fill('123');
  await scope.getByLabel('Postal Code').fill('90012');
  await scope.getByRole('button', { name: submit }).click();
}

export async function balanceOf(request: APIRequestContext, customer: Customer) {
  const answer = await request.get('/api/users/me/balance', { headers: bearer(customer) });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { amount_cents: number }).amount_cents;
}

type Upcoming = {
  calendar: number;
  calendar_name: string;
  slot: string;
  duration_minutes: number;
  paid: boolean;
};

export async function upcomingOf(request: APIRequestContext, customer: Customer) {
  const answer = await request.get('/api/users/me/reservations/future?group_base=true', {
    headers: bearer(customer),
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { results: Upcoming[] }).results;
}

/**
 * Runs `body` with the demo's VR seat type booked by the half-hour, then puts its 2-hour minimum
 * back (decision 0089). For the journeys about a dearer seat: the demo's only dearer seats are VR
 * rigs, and one half-hour moved there is below their minimum. Journeys run one at a time.
 */
export async function withoutVrMinimum(request: APIRequestContext, body: () => Promise<void>) {
  const login = await request.post('/api/auth/token', {
    data: { username: 'admin@paddock.local', password: 'paddock-admin' },
  });
  expect(login.ok()).toBe(true);
  const headers = {
    Authorization: `Bearer ${((await login.json()) as { access: string }).access}`,
  };
  const seats = (await (await request.get('/api/calendars?page_size=100')).json()) as {
    results: { name: string; type: number }[];
  };
  const vrType = seats.results.find((s) => s.name === 'VR Rig 1')!.type;
  const setMinimum = async (minutes: number) =>
    expect(
      (
        await request.patch(`/api/caltypes/${vrType}`, { headers, data: { min_minutes: minutes } })
      ).status(),
    ).toBe(200);
  await setMinimum(30);
  try {
    await body();
  } finally {
    await setMinimum(120);
  }
}
