import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
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
let group: CreatedUser;
let nameless: CreatedUser;
let reservationIds: number[];

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
  /** The display alarms' triggers, e.g. `-PT1H`. */
  alarms: string[];
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
      alarms: vevent
        .getAllSubcomponents('valarm')
        .filter((alarm) => alarm.getFirstPropertyValue('action') === 'DISPLAY')
        .map((alarm) => String(alarm.getFirstPropertyValue('trigger'))),
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
  group = await createUser(t, { email: `group-${Date.now()}@example.com` });
  await saveTestCard(t, racer);
  await saveTestCard(t, group);

  // Two back-to-back slots on one seat: one dashboard entry, two reservations, one visit.
  ({ reservationIds } = await book(racer, [
    [0, '19:00'],
    [0, '19:30'],
  ]));
  // A group: both seats at 20:00, the first one on to 21:00 (one visit); later, one seat alone.
  await book(group, [
    [0, '20:00'],
    [1, '20:00'],
    [0, '20:30'],
    [1, '21:30'],
  ]);
  const other = await t.app.inject({
    method: 'POST',
    url: '/api/reservations',
    headers: bearer(nameless.token),
    payload: { calendar: venue.seats[1].id, slot: `${day}T19:00` },
  });
  expect(other.statusCode).toBe(201);
});
afterAll(() => t.close());

/** Books and pays these seat-slots (seat index, HH:mm on `day`) in one checkout. */
async function book(user: CreatedUser, slots: [seat: number, hhmm: string][]) {
  const quote = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers: bearer(user.token),
    payload: {
      reservations: slots.map(([seat, hhmm]) => ({
        calendar: venue.seats[seat].id,
        slot: `${day}T${hhmm}`,
      })),
    },
  });
  expect(quote.statusCode).toBe(200);
  const id: number = quote.json().checkout_id;
  const processed = await t.app.inject({
    method: 'POST',
    url: `/api/reservations/checkouts/${id}/process`,
    headers: bearer(user.token),
  });
  expect(processed.statusCode).toBe(200);
  return {
    checkoutId: id,
    reservationIds: processed.json().reservations.map((r: { id: number }) => r.id) as number[],
  };
}

const host = () => new URL(t.deps.config.publicUrl).hostname;
const uid = (id: number) => `reservation-${id}@${host()}`;
const visitUid = (id: number) => `visit-${id}@${host()}`;
const at = (hhmm: string) => DateTime.fromISO(`${day}T${hhmm}`, { zone }).toJSDate();

describe('iCalendar: e-mail and dashboard download agree, the staff feed by seat-slot', () => {
  it('the booking e-mail: one event per visit with a reminder, the venue zone, METHOD:PUBLISH', async () => {
    const { method, events, zones } = parse(await mailedCalendar(racer.email));
    expect(method).toBe('PUBLISH');
    expect(zones).toEqual([zone]);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event.uid).toBe(visitUid(reservationIds[0]));
    expect(event.tzid).toBe(zone);
    expect(event.stampIsUtc).toBe(true);
    expect(event.location).toBe('Brighton Pier Racing, 1 Madeira Drive, Brighton BN2 1TW');
    expect(event.summary).toBe('Sim 1 at Brighton Pier Racing');
    expect(event.organizer).toMatch(/^mailto:/);
    expect([event.start, event.end]).toEqual([at('19:00'), at('20:00')]);
    expect(event.alarms).toEqual(['-PT1H']);
  });

  it("the booking e-mail's text: a line per seat's run of half-hours", async () => {
    await receiptsSent(t);
    const [mail] = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, group.email));
    const lines = mail.text.split('\n').filter((l) => / \* Sim \d:/.test(l));
    const date = DateTime.fromISO(day).toFormat('ccc, LLL d, yyyy');
    const zoneName = DateTime.fromISO(`${day}T20:00`, { zone }).toFormat('ZZZZ');
    expect(lines).toEqual([
      ` * Sim 1: ${date}, 8:00 PM to 9:00 PM (${zoneName})`,
      ` * Sim 2: ${date}, 8:00 PM to 8:30 PM (${zoneName})`,
      ` * Sim 2: ${date}, 9:30 PM to 10:00 PM (${zoneName})`,
    ]);
  });

  it("the booking e-mail: a group's seats side by side and on after each other are one visit", async () => {
    const { events } = parse(await mailedCalendar(group.email));
    expect(
      events.map(({ summary, start, end, alarms }) => ({ summary, start, end, alarms })),
    ).toEqual([
      {
        summary: 'Sim 1 and Sim 2 at Brighton Pier Racing',
        start: at('20:00'),
        end: at('21:00'),
        alarms: ['-PT1H'],
      },
      {
        summary: 'Sim 2 at Brighton Pier Racing',
        start: at('21:30'),
        end: at('22:00'),
        alarms: ['-PT1H'],
      },
    ]);
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
    const instants = downloaded.events.map((e) => [e.start.getTime(), e.end.getTime()]);
    const times = (
      await Promise.all(reservationIds.map((id) => get(`/api/reservations/${id}`, racer)))
    ).map((r) => new Date(r.json().time).getTime());
    expect(instants).toEqual([[times[0], times[1] + 30 * 60_000]]);

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
