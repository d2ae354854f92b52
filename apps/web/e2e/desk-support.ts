import type { APIRequestContext, Page } from '@playwright/test';
import type { Permission } from '@paddock/contract/accounts';
import { logIn } from './fixtures';

/** The demo owner (superuser), seeded by the e2e server. */
export const OWNER = { username: 'admin@paddock.local', password: 'paddock-admin' };

/** The desk-task viewport of issue 30: a tablet at the counter. */
export const TABLET = { width: 820, height: 1180 };

/** Screenshots of the journeys, to look at (test-results is not committed). */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/desk-shots/${name}.png`, fullPage: true });

export async function apiToken(request: APIRequestContext, account: typeof OWNER) {
  const res = await request.post('/api/auth/token', { data: account });
  if (!res.ok()) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/**
 * A staff member holding only `permissions`: signed up as a customer, then made staff by the
 * owner through the API (the staff screen's own journey is staff-invite.spec.ts).
 */
export async function staffWith(request: APIRequestContext, permissions: Permission[]) {
  const email = `desk-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'a-desk-password';
  const signup = await request.post('/api/users', { data: { email, password } });
  if (!signup.ok()) throw new Error(`signup failed: ${await signup.text()}`);
  const { user } = (await signup.json()) as { user: { id: number } };
  const owner = await apiToken(request, OWNER);
  const made = await request.put(`/api/users/${user.id}/permissions`, {
    headers: { Authorization: `Bearer ${owner}` },
    data: { is_staff: true, permissions },
  });
  if (!made.ok()) throw new Error(`permissions failed: ${await made.text()}`);
  return { id: user.id, username: email, password };
}

const ALL_DAY = Object.fromEntries(
  ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '00:00', close: '00:00' }]]),
);

/**
 * A location of its own with seats `${name} ${tag}`, made by the owner through the API (the
 * demo's seats are other journeys'). Answers its id, seats, zone and the owner's headers.
 */
async function newPlace(
  request: APIRequestContext,
  tag: string,
  names: string[],
  place: { label: string; timezone: string; costCents: number; allDay: boolean },
) {
  const headers = { Authorization: `Bearer ${await apiToken(request, OWNER)}` };
  const made = await request.post('/api/locations', {
    headers,
    data: {
      name: `${place.label} ${tag}`,
      timezone: place.timezone,
      ...(place.allDay ? { opening_hours: ALL_DAY } : {}),
    },
  });
  if (!made.ok()) throw new Error(`location failed: ${await made.text()}`);
  const location = ((await made.json()) as { id: number }).id;
  const types = (await (await request.get('/api/caltypes')).json()) as
    { id: number }[] | { results: { id: number }[] };
  const type = (Array.isArray(types) ? types : types.results)[0].id;
  const seats: number[] = [];
  for (const name of names) {
    const seat = await request.post('/api/calendars', {
      headers,
      data: { name: `${name} ${tag}`, type, location, cost_cents: place.costCents },
    });
    if (!seat.ok()) throw new Error(`seat failed: ${await seat.text()}`);
    seats.push(((await seat.json()) as { id: number }).id);
  }
  return { location, seats, timezone: place.timezone, headers };
}

/** A location with the default opening hours and $10.00 seats (the party journeys'). */
export const placeWithSeats = (
  request: APIRequestContext,
  tag: string,
  names: string[],
  timezone = 'America/Los_Angeles',
) => newPlace(request, tag, names, { label: 'Parties', timezone, costCents: 1000, allDay: false });

/** A location open around the clock with $20.00 seats (the desk journeys': any time is open). */
export const openAllDay = (
  request: APIRequestContext,
  tag: string,
  names: string[],
  timezone = 'America/Los_Angeles',
) => newPlace(request, tag, names, { label: 'Desk', timezone, costCents: 2000, allDay: true });

/** Tomorrow's date (YYYY-MM-DD) in `timezone`: a day whose afternoon is ahead whenever run. */
export const tomorrowIn = (timezone: string) =>
  new Date(Date.now() + 24 * 3600 * 1000).toLocaleDateString('en-CA', { timeZone: timezone });

/** A customer account signed up through the API (no card). */
export async function customerAccount(request: APIRequestContext, tag: string) {
  const email = `customer-${tag}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await request.post('/api/users', { data: { email, password: 'a-customer-pw' } });
  if (!signup.ok()) throw new Error(`signup failed: ${await signup.text()}`);
  return { id: ((await signup.json()) as { user: { id: number } }).user.id, email };
}

/** A planner cell's checkbox, named by its seat and time ("Rig A 123 3:00 AM"), and its box. */
export const plannerCell = (page: Page, seat: string, time: string) =>
  page.getByRole('checkbox', { name: `${seat} ${time}`, exact: true });
export const plannerCellBox = (page: Page, seat: string, time: string) =>
  page.locator('.paddock-planner-cell').filter({ has: plannerCell(page, seat, time) });

/**
 * A customer booked at the desk (to pay there) on `Rig A ${tag}` of a new all-day venue, at
 * `hhmm` tomorrow on the venue's clock, through the owner's API. Answers what the journeys use.
 */
export async function deskBookingTomorrow(
  request: APIRequestContext,
  tag: string,
  hhmm: string,
  timezone = 'America/Los_Angeles',
) {
  const place = await openAllDay(request, tag, ['Rig A'], timezone);
  const date = tomorrowIn(place.timezone);
  const customer = await customerAccount(request, tag);
  const booked = await request.post('/api/planner/book', {
    headers: place.headers,
    data: {
      user: customer.id,
      slots: [{ calendar: place.seats[0], slot: `${date}T${hhmm}` }],
      payment: 'desk',
    },
  });
  if (!booked.ok()) throw new Error(`booking failed: ${await booked.text()}`);
  const due = ((await booked.json()) as { payment_due: PaymentDue }).payment_due;
  return { ...place, seat: `Rig A ${tag}`, date, customer, due };
}

type PaymentDue = { total_cents: number; bookings: { id: number }[] };

/**
 * A staff member with the planner permission only, logged in on the planner at `date`, who
 * ticks the booking at `time` and opens With Selected: the start of the desk's dialogs.
 */
export async function withSelectedAsDesk(
  page: Page,
  request: APIRequestContext,
  at: { location: number; date: string; seat: string; time: string },
) {
  const desk = await staffWith(request, ['reservations.change_reservation']);
  await logIn(page, desk);
  await page.goto(`/admin/seats?location=${at.location}&date=${at.date}`);
  await plannerCell(page, at.seat, at.time).check();
  await page.getByRole('button', { name: 'With Selected (1)' }).click();
  return desk;
}
