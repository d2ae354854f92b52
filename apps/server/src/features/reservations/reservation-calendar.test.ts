import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { users } from '../../db/schema/accounts';
import { outboxMessages } from '../../db/schema/content';
import { locations } from '../../db/schema/venue';
import { createTestApp, type TestApp } from '../../test/test-app';
import { receiptsSent } from '../../test/sent-mail';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// Every calendar Paddock writes, read back with an independent parser (ical.js, Mozilla's).

const zone = 'Europe/London';
const day = futureDate(6, zone);
let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let racer: CreatedUser;
let nameless: CreatedUser;
let reservationIds: number[];
let checkoutId: number;

const get = (url: string, user?: CreatedUser) =>
  t.app.inject({ method: 'GET', url, headers: user ? bearer(user.token) : {} });

type Event = {
  uid: string;
  summary: string;
  location: string;
  tzid: string | null;
  start: Date;
  end: Date;
  stampIsUtc: boolean;
  organizer: string | null;
};

/** Parses with ical.js, resolving each TZID through the file's own VTIMEZONE. */
function parse(text: string): { method: string | null; events: Event[]; zones: string[] } {
  expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
  expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = calendar.getAllSubcomponents('vtimezone').map((vtz) => {
    const tz = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(tz, tz.tzid);
    return tz.tzid;
  });
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    const stamp = vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location,
      tzid: vevent.getFirstProperty('dtstart')!.getParameter('tzid') as string | null,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      stampIsUtc: stamp.zone === ICAL.Timezone.utcTimezone,
      organizer: vevent.getFirstPropertyValue('organizer') as string | null,
    };
  });
  return { method: calendar.getFirstPropertyValue('method') as string | null, events, zones };
}

async function mailedCalendar(to: string): Promise<string> {
  await receiptsSent(t);
  const [mail] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));
  const dir = path.join(t.deps.config.dataDir, 'outbox');
  const file = (await fs.readdir(dir)).find((f) => f.endsWith(`-${mail.id}.eml`))!;
  const eml = await fs.readFile(path.join(dir, file), 'utf8');
  const part = eml.split('filename=booking.ics')[1];
  expect(eml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/);
  return Buffer.from(part.split('\n\n')[1].split('\n--')[0].replace(/\s/g, ''), 'base64').toString(
    'utf8',
  );
}

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { name: 'Brighton Pier Racing', timezone: zone, seats: 2 });
  await t.db
    .update(locations)
    .set({ address: '1 Madeira Drive, Brighton BN2 1TW' })
    .where(eq(locations.id, venue.location.id));
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
  racer = await createUser(t, { email: `lewis-${Date.now()}@example.com` });
  await t.db.update(users).set({ racerName: 'Flying Lewis' }).where(eq(users.id, racer.id));
  nameless = await createUser(t, {
    email: `anon-${Date.now()}@example.com`,
    firstName: '',
    lastName: '',
  });
  await saveTestCard(t, racer);

  // Two back-to-back slots on one seat: one dashboard entry, two reservations.
  const quote = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers: bearer(racer.token),
    payload: {
      reservations: ['19:00', '19:30'].map((hhmm) => ({
        calendar: venue.seats[0].id,
        slot: `${day}T${hhmm}`,
      })),
    },
  });
  checkoutId = quote.json().checkout_id;
  const processed = await t.app.inject({
    method: 'POST',
    url: `/api/reservations/checkouts/${checkoutId}/process`,
    headers: bearer(racer.token),
  });
  expect(processed.statusCode).toBe(200);
  reservationIds = processed.json().reservations.map((r: { id: number }) => r.id);
  const other = await t.app.inject({
    method: 'POST',
    url: '/api/reservations',
    headers: bearer(nameless.token),
    payload: { calendar: venue.seats[1].id, slot: `${day}T19:00` },
  });
  expect(other.statusCode).toBe(201);
});
afterAll(() => t.close());

const uid = (id: number) => `reservation-${id}@${new URL(t.deps.config.publicUrl).hostname}`;

describe('iCalendar: e-mail, dashboard download and staff feed agree', () => {
  it('the booking e-mail: one event per reservation, the venue zone, METHOD:PUBLISH', async () => {
    const { method, events, zones } = parse(await mailedCalendar(racer.email));
    expect(method).toBe('PUBLISH');
    expect(zones).toEqual([zone]);
    expect(events.map((e) => e.uid)).toEqual(reservationIds.map(uid));
    for (const event of events) {
      expect(event.tzid).toBe(zone);
      expect(event.stampIsUtc).toBe(true);
      expect(event.location).toBe('Brighton Pier Racing, 1 Madeira Drive, Brighton BN2 1TW');
      expect(event.summary).toBe('Sim 1 at Brighton Pier Racing');
      expect(event.organizer).toMatch(/^mailto:/);
      expect(event.end.getTime() - event.start.getTime()).toBe(30 * 60_000);
    }
  });

  it('the dashboard download: the same UIDs and times for the whole run, owner or staff only', async () => {
    const mine = await get(`/api/reservations/${reservationIds[0]}/calendar.ics`, racer);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(mine.headers['content-disposition']).toBe(
      `attachment; filename="reservation-${reservationIds[0]}.ics"`,
    );
    const mailed = parse(await mailedCalendar(racer.email)).events;
    const downloaded = parse(mine.body);
    expect(downloaded.method).toBe('PUBLISH');
    expect(
      downloaded.events.map(({ uid, start, end, tzid, location, summary }) => ({
        uid,
        start,
        end,
        tzid,
        location,
        summary,
      })),
    ).toEqual(
      mailed.map(({ uid, start, end, tzid, location, summary }) => ({
        uid,
        start,
        end,
        tzid,
        location,
        summary,
      })),
    );
    // The instants are right once the parser applies the file's own VTIMEZONE.
    const instants = downloaded.events.map((e) => e.start.getTime());
    const expected = (
      await Promise.all(reservationIds.map((id) => get(`/api/reservations/${id}`, racer)))
    ).map((r) => new Date(r.json().time).getTime());
    expect(instants).toEqual(expected);

    expect(
      (await get(`/api/reservations/${reservationIds[0]}/calendar.ics`, nameless)).statusCode,
    ).toBe(404);
    expect((await get(`/api/reservations/${reservationIds[0]}/calendar.ics`)).statusCode).toBe(401);
    expect(
      (await get(`/api/reservations/${reservationIds[1]}/calendar.ics`, staff)).statusCode,
    ).toBe(200);
  });

  it('the staff feed: the same UIDs, racer names and never a customer e-mail', async () => {
    const res = await get(`/api/feed.ics?location=${venue.location.id}`, staff);
    expect(res.statusCode).toBe(200);
    const feed = parse(res.body);
    const byUid = new Map(feed.events.map((e) => [e.uid, e]));
    for (const id of reservationIds) {
      const event = byUid.get(uid(id))!;
      expect(event.summary).toBe('Sim 1: Flying Lewis');
      expect(event.tzid).toBe(zone);
      expect(event.stampIsUtc).toBe(true);
      expect(event.location).toBe('Brighton Pier Racing, 1 Madeira Drive, Brighton BN2 1TW');
    }
    const summaries = feed.events.map((e) => e.summary);
    expect(summaries).toContain('Sim 2: Customer (unpaid)');
    expect(summaries.some((s) => s.includes('@'))).toBe(false);
    expect(res.body).not.toContain(racer.email);
    expect(res.body).not.toContain(nameless.email);
  });

  it('the API document serves both calendars as text/calendar', async () => {
    const doc = (await get('/api/openapi.json')).json();
    for (const p of ['/api/feed.ics', '/api/reservations/{id}/calendar.ics'])
      expect(Object.keys(doc.paths[p].get.responses['200'].content)).toEqual(['text/calendar']);
  });
});
