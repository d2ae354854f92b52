import type { APIRequestContext, Page } from '@playwright/test';
import type { Permission } from '@paddock/contract/accounts';

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

/**
 * A location of its own with seats named `${name} ${tag}`, made by the owner through the API:
 * the demo's seats are other journeys' parties. Answers the location and its zone.
 */
export async function placeWithSeats(
  request: APIRequestContext,
  tag: string,
  names: string[],
  timezone = 'America/Los_Angeles',
) {
  const headers = { Authorization: `Bearer ${await apiToken(request, OWNER)}` };
  const made = await request.post('/api/locations', {
    headers,
    data: { name: `Parties ${tag}`, timezone },
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
      data: { name: `${name} ${tag}`, type, location, cost_cents: 1000 },
    });
    if (!seat.ok()) throw new Error(`seat failed: ${await seat.text()}`);
    seats.push(((await seat.json()) as { id: number }).id);
  }
  return { location, seats, timezone };
}

const ALL_DAY = Object.fromEntries(
  ['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ open: '00:00', close: '00:00' }]]),
);

/**
 * A location open around the clock with seats `${name} ${tag}` of its own (the demo's are other
 * journeys'), made by the owner through the API. Answers its id, seats, zone and owner headers.
 */
export async function openAllDay(
  request: APIRequestContext,
  tag: string,
  names: string[],
  timezone = 'America/Los_Angeles',
) {
  const headers = { Authorization: `Bearer ${await apiToken(request, OWNER)}` };
  const made = await request.post('/api/locations', {
    headers,
    data: { name: `Desk ${tag}`, timezone, opening_hours: ALL_DAY },
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
      data: { name: `${name} ${tag}`, type, location, cost_cents: 2000 },
    });
    if (!seat.ok()) throw new Error(`seat failed: ${await seat.text()}`);
    seats.push(((await seat.json()) as { id: number }).id);
  }
  return { location, seats, timezone, headers };
}

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
