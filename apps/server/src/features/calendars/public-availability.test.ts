import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { reservations } from '../../db/schema/booking';
import { findSlot } from '../../lib/slots';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { ALL_DAY, createVenue, futureDate } from '../../test/booking-factories';
import { PUBLIC_AVAILABILITY_PER_MINUTE } from './public-availability.routes';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let booker: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(2, zone);
const taken = `${day}T15:00`;

let owner: CreatedUser;
async function setSetting(key: string, value: unknown) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/settings',
    headers: bearer(owner.token),
    payload: { [key]: value },
  });
  expect(res.statusCode).toBe(200);
}
const url = () => `/api/public/availability?location=${venue.location.id}&date=${day}`;
const visit = (headers: Record<string, string> = {}) => t.app.inject({ url: url(), headers });

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 4500, timezone: zone });
  booker = await createUser(t, { firstName: 'Zebedee', lastName: 'Quark' });
  owner = await createUser(t, { isStaff: true, isSuperuser: true });
  const s = findSlot({ timezone: zone, openingHours: ALL_DAY, specialHours: {} }, taken)!;
  await t.db.insert(reservations).values({
    calendarId: venue.seats[0].id,
    slot: taken,
    time: new Date(s.startMs),
    userId: booker.id,
    paid: true,
  });
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

describe('availability before signing up (decision 0123)', () => {
  it('is refused as the spec has it while the setting is off', async () => {
    const anonymous = await visit();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().detail).toBe('Sign up or Log in to view sim availability');
    const signedIn = await visit(bearer(booker.token));
    expect(signedIn.statusCode).toBe(403);
  });

  it('shows seats, prices and free times without a session, and nobody in them', async () => {
    await setSetting('public_availability', true);
    const res = await visit();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.location).toEqual({
      id: venue.location.id,
      name: venue.location.name,
      timezone: zone,
      currency: 'USD',
    });
    expect(body.seats.map((s: { id: number }) => s.id)).toEqual(venue.seats.map((s) => s.id));
    expect(body.seats[0]).toMatchObject({ cost_cents: 4500 });
    const [first, second] = body.seats as { free: { slot: string }[] }[];
    expect(first.free.map((f) => f.slot)).not.toContain(taken);
    expect(second.free.map((f) => f.slot)).toContain(taken);
    // No customer data: not the booker's name, e-mail or id, nor the booking's id.
    const text = res.body;
    for (const personal of ['Zebedee', 'Quark', booker.email, 'reserved_by_me', 'paid'])
      expect(text).not.toContain(personal);
    expect(Object.keys(first).sort()).toEqual(
      ['cost_cents', 'cost_unit', 'free', 'id', 'min_minutes', 'name', 'type_name'].sort(),
    );
  });

  it("frees exactly the booking page's free slots (one rule)", async () => {
    const seat = venue.seats[0].id;
    const page = (await t.app.inject({ url: `/api/calendars/${seat}/avail?date=${day}` })).json();
    const pageFree = Object.values(page as Record<string, { slot: string; state: string }>)
      .filter((s) => s.state === 'free')
      .map((s) => s.slot);
    const seats = (await visit()).json().seats as { id: number; free: { slot: string }[] }[];
    expect(seats.find((s) => s.id === seat)!.free.map((f) => f.slot)).toEqual(pageFree);
  });

  it('answers every visitor from one computation until the feed announces a booking', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date() });
    await visit();
    const statements: string[] = [];
    const pool = t.deps.database.pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    const spy = vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
      const first = args[0] as string | { text: string };
      statements.push(typeof first === 'string' ? first : first.text);
      return query(...args);
    }) as never);
    // Another visitor, another address: the same answer, and no seat or booking read.
    const again = await t.app.inject({ url: url(), remoteAddress: '203.0.113.9' });
    spy.mockRestore();
    expect(again.statusCode).toBe(200);
    expect(statements.filter((s) => /reservations|calendars/.test(s))).toEqual([]);
    expect(statements.some((s) => s.includes('rate_limit_counters'))).toBe(true);
  });

  it('says 429 to a client past its views per minute, not to the next one', async () => {
    await t.db.execute(sql`
      insert into rate_limit_counters (key, hits, reset_at)
      values (${'public-avail:ip:198.51.100.7'}, ${PUBLIC_AVAILABILITY_PER_MINUTE},
              now() + interval '1 minute')`);
    const crawler = await t.app.inject({ url: url(), remoteAddress: '198.51.100.7' });
    expect(crawler.statusCode).toBe(429);
    expect(crawler.json().detail).toMatch(/^Too many attempts\. Please wait \d+ seconds/);
    const person = await t.app.inject({ url: url(), remoteAddress: '198.51.100.8' });
    expect(person.statusCode).toBe(200);
  });

  it('names the field of a bad date or location in a sentence', async () => {
    const bad = await t.app.inject({ url: `/api/public/availability?location=x&date=2030-02-30` });
    expect(bad.statusCode).toBe(400);
    const past = await t.app.inject({
      url: `/api/public/availability?location=${venue.location.id}&date=2001-01-01`,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().date[0]).toMatch(/^Choose a date from/);
    const nowhere = await t.app.inject({
      url: `/api/public/availability?location=999999&date=${day}`,
    });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().location[0]).toBe('Location not found.');
  });
});

describe('the booking widget (decision 0123)', () => {
  it('serves the loader to any website', async () => {
    const res = await t.app.inject({ url: '/widget.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toContain('event.origin !== origin');
  });

  it("lets the setting's origins frame the widget page and nothing else", async () => {
    await setSetting('widget_origins', ['https://venue.example']);
    // The settings are read again on the change feed's word: wait for it.
    await vi.waitFor(
      async () => {
        const widget = await t.app.inject({ url: `/widget/${venue.location.id}` });
        expect(widget.headers['content-security-policy']).toContain(
          "frame-ancestors 'self' https://venue.example",
        );
      },
      { timeout: 5000 },
    );
    const widget = await t.app.inject({ url: `/widget/${venue.location.id}` });
    expect(widget.headers['x-frame-options']).toBeUndefined();
    const other = await t.app.inject({ url: '/reservations/all' });
    expect(other.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(other.headers['content-security-policy']).not.toContain('venue.example');
    expect(other.headers['x-frame-options']).toBe('SAMEORIGIN');
    const api = await visit();
    expect(api.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('lets nobody else frame it while public availability is off', async () => {
    await setSetting('public_availability', false);
    await vi.waitFor(
      async () => {
        const widget = await t.app.inject({ url: `/widget/${venue.location.id}` });
        expect(widget.headers['content-security-policy']).not.toContain('venue.example');
      },
      { timeout: 5000 },
    );
  });
});
