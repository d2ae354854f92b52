import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { AddressInfo } from 'node:net';
import { auditEvents } from '../../db/schema/audit';
import { reservations } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';
import { settings } from '../../db/schema/content';
import { users } from '../../db/schema/accounts';
import { laps } from '../../db/schema/laps';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { saveTestCard } from '../../test/cards';
import { receiptsSent, sentMails } from '../../test/sent-mail';
import { listen } from '../../test/event-stream';
import { cutAtAudit } from '../../test/cut-at-audit';

let t: TestApp;
let staff: CreatedUser;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['rigs.change_rig'] });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

/** Waits for what the stream hears (polling; the bound is liveness on a loaded machine). */
async function until(check: () => boolean) {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const ZONE = 'America/Los_Angeles';
const HALF = 30 * 60_000;
/** The half-hour running now, and `n` half-hours from it. */
const halfHour = (n = 0) => new Date(Math.floor(Date.now() / HALF) * HALF + n * HALF);
const keyOf = (at: Date) => DateTime.fromJSDate(at, { zone: ZONE }).toFormat("yyyy-MM-dd'T'HH:mm");

async function rigKey(seat: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/rig_keys',
    headers: bearer(staff.token),
    payload: { calendar: seat },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { authorization: `Rig ${res.json().key as string}` };
}

async function book(seat: number, at: Date, userId: number | null, paid = true) {
  const [row] = await t.db
    .insert(reservations)
    .values({ calendarId: seat, slot: keyOf(at), time: at, userId, paid, amountCents: 4500 })
    .returning({ id: reservations.id });
  return row.id;
}

const read = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ url: '/api/rig_session', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('the rig session', () => {
  it('a rig key reads its own seat only: now, next, settings; a session is no rig key', async () => {
    const { seats } = await createVenue(t, { seats: 2 });
    const ada = await createUser(t, { firstName: 'Ada', lastName: 'Racer' });
    const bob = await createUser(t, { firstName: 'Bob', lastName: 'Other' });
    const id = await book(seats[0].id, halfHour(), ada.id);
    await book(seats[0].id, halfHour(1), bob.id);
    await book(seats[1].id, halfHour(), bob.id);
    const keyA = await rigKey(seats[0].id);

    const view = await read(keyA);
    expect(view).toMatchObject({
      seat: seats[0].id,
      seat_name: 'Sim 1',
      out_of_service: false,
      current: { reservation: id, customer_name: 'Ada Racer', paid: true, checked_in: false },
      next: { customer_name: 'Bob Other' },
      start_mode: 'staff',
      first_warning_minutes: 5,
      last_warning_minutes: 1,
      can_extend: false,
    });
    expect(JSON.stringify(view)).not.toContain('@');
    // Nobody reads a seat without its key; a user's session is not one.
    expect((await t.app.inject({ url: '/api/rig_session' })).statusCode).toBe(401);
    const asUser = await t.app.inject({ url: '/api/rig_session', headers: bearer(ada.token) });
    expect(asUser.statusCode).toBe(401);
    // Another seat's booking cannot be started with this key.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/start',
      headers: keyA,
      payload: { reservation: (await read(await rigKey(seats[1].id))).current.reservation },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().reservation[0]).toMatch(/no longer the one running/);
  });

  it('Start checks the session in once, audited; the rig hears its own seat on the change feed', async () => {
    const { seats } = await createVenue(t, { seats: 2 });
    const ada = await createUser(t);
    const first = await book(seats[0].id, halfHour(), ada.id);
    const second = await book(seats[0].id, halfHour(1), ada.id);
    const key = await rigKey(seats[0].id);
    const stream = await listen(`${url}/api/events?topics=reservations`, key);
    await until(() => stream.signals.some((s) => s.event === 'hello'));
    // Another seat's change is not this rig's business.
    await book(seats[1].id, halfHour(), ada.id);
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/rig_session/start',
        headers: key,
        payload: { reservation: first },
      });
    const res = await start();
    expect(res.json().detail).toBe('Checked in: the session has started.');
    await until(() => stream.events.length > 0);
    expect(stream.events.map((e) => e.data)).toEqual([
      expect.objectContaining({ topic: 'reservations', id: seats[0].id }),
    ]);
    stream.close();
    expect((await start()).json().detail).toBe('Already started.');
    const rows = await t.db
      .select({ attendance: reservations.attendance })
      .from(reservations)
      .where(eq(reservations.calendarId, seats[0].id));
    expect(rows.map((r) => r.attendance)).toEqual(['checked_in', 'checked_in']);
    expect(second).toBeGreaterThan(first);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'rig_session.start'), eq(auditEvents.targetId, first)));
    expect(audit).toHaveLength(1);
    expect((await read(key)).current.checked_in).toBe(true);
  });

  it('extends by the next half-hour through the checkout: the saved card charged, one mail, one audit row; a retry books nothing more', async () => {
    const { seats } = await createVenue(t, { seats: 1, costCents: 4500 });
    const ada = await createUser(t);
    await saveTestCard(t, ada);
    const id = await book(seats[0].id, halfHour(), ada.id);
    const key = await rigKey(seats[0].id);
    const before = await read(key);
    expect(before.can_extend).toBe(true);
    const extend = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/rig_session/extend',
        headers: key,
        payload: { reservation: id, ends: before.current.ends },
      });
    const res = await extend();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ detail: 'Extended by 30 minutes.', paid: true });
    expect(new Date(res.json().ends).getTime()).toBe(halfHour(2).getTime());
    const after = await read(key);
    expect(new Date(after.current.ends).getTime()).toBe(halfHour(2).getTime());

    const booked = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.time, halfHour(1)), eq(reservations.calendarId, seats[0].id)));
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({ userId: ada.id, paid: true, amountCents: 4500 });
    const charged = await t.db.select().from(charges).where(eq(charges.userId, ada.id));
    expect(charged.map((c) => c.amountCents)).toEqual([4500]);
    await receiptsSent(t);
    expect(await sentMails(t, ada.email)).toHaveLength(1);

    // The answer was lost: the same tap again books nothing and charges nothing.
    const again = await extend();
    expect(again.json().detail).toBe('Already extended.');
    expect(await t.db.select().from(charges).where(eq(charges.userId, ada.id))).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'rig_session.extend'));
    expect(audit.filter((a) => a.targetId === booked[0].id)).toHaveLength(1);
  });

  it('refuses to extend into someone else’s slot, a stale end, or nobody’s session; no card books it unpaid', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const ada = await createUser(t);
    const bob = await createUser(t);
    const id = await book(seats[0].id, halfHour(), ada.id);
    const bobs = await book(seats[0].id, halfHour(1), bob.id);
    const key = await rigKey(seats[0].id);
    const view = await read(key);
    expect(view.can_extend).toBe(false);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/extend',
      headers: key,
      payload: { reservation: id, ends: view.current.ends },
    });
    expect(taken.statusCode).toBe(400);
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/extend',
      headers: key,
      payload: { reservation: id, ends: halfHour(3).toISOString() },
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().ends[0]).toMatch(/changed since the screen read it/);
    // Bob's slot freed: Ada, without a saved card, extends and pays at the desk.
    await t.db
      .update(reservations)
      .set({ cancelledAt: new Date() })
      .where(eq(reservations.id, bobs));
    const unpaid = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/extend',
      headers: key,
      payload: { reservation: id, ends: view.current.ends },
    });
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    expect(unpaid.json().paid).toBe(false);
    const [row] = await t.db
      .select()
      .from(reservations)
      .where(
        and(
          eq(reservations.time, halfHour(1)),
          eq(reservations.calendarId, seats[0].id),
          isNull(reservations.cancelledAt),
        ),
      );
    expect(row).toMatchObject({ userId: ada.id, paid: false });
  });

  it('a crash at the audit row leaves the extension booked and paid once; the retry completes the trail', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const ada = await createUser(t);
    await saveTestCard(t, ada);
    const id = await book(seats[0].id, halfHour(), ada.id);
    const key = await rigKey(seats[0].id);
    const view = await read(key);
    const cut = await cutAtAudit(t.deps.database.url, 'rig_session.extend');
    const body = { reservation: id, ends: view.current.ends };
    try {
      const crashed = await t.app.inject({
        method: 'POST',
        url: '/api/rig_session/extend',
        headers: key,
        payload: body,
      });
      expect(crashed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await cut.close();
    }
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/extend',
      headers: key,
      payload: body,
    });
    expect(retry.json().detail).toBe('Already extended.');
    const booked = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.time, halfHour(1)), eq(reservations.calendarId, seats[0].id)));
    expect(booked).toHaveLength(1);
    expect(booked[0].paid).toBe(true);
    expect(await t.db.select().from(charges).where(eq(charges.userId, ada.id))).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'rig_session.extend'), eq(auditEvents.targetId, booked[0].id)),
      );
    expect(audit).toHaveLength(1);
  });

  it('start mode and warnings are venue settings; an offline report checks in and is audited', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const ada = await createUser(t);
    const id = await book(seats[0].id, halfHour(), ada.id);
    const key = await rigKey(seats[0].id);
    await t.db
      .insert(settings)
      .values([
        { key: 'rig_start_mode', value: 'customer' },
        { key: 'rig_first_warning_minutes', value: 10 },
      ])
      .onConflictDoNothing();
    expect(await read(key)).toMatchObject({ start_mode: 'customer', first_warning_minutes: 10 });
    await t.db.delete(settings).where(eq(settings.key, 'rig_start_mode'));
    await t.db.delete(settings).where(eq(settings.key, 'rig_first_warning_minutes'));
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/report',
      headers: key,
      payload: { reservation: id, event: 'started', at: new Date().toISOString(), offline: true },
    });
    expect(report.statusCode, report.body).toBe(200);
    expect((await read(key)).current.checked_in).toBe(true);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/rig_session/report',
      headers: key,
      payload: {
        reservation: 999_999,
        event: 'ended',
        at: new Date().toISOString(),
        offline: true,
      },
    });
    expect(wrong.statusCode).toBe(400);
    // An id past the database's integers is refused by its field, in words, on every route.
    for (const route of ['start', 'extend', 'report']) {
      const huge = await t.app.inject({
        method: 'POST',
        url: `/api/rig_session/${route}`,
        headers: key,
        payload: {
          reservation: 2 ** 31,
          ends: new Date().toISOString(),
          event: 'ended',
          at: new Date().toISOString(),
          offline: true,
        },
      });
      expect(huge.statusCode).toBe(400);
      expect(huge.json().reservation[0]).toMatch(/less than or equal/);
    }
  });

  it('a lap driven on the seat during a booking is the booked customer’s, whatever sim id the rig carries', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const ada = await createUser(t);
    const owner = await createUser(t);
    await t.db.update(users).set({ simGuid: '76561190000000042' }).where(eq(users.id, owner.id));
    await book(seats[0].id, halfHour(), ada.id);
    const key = await rigKey(seats[0].id);
    const lap = (id: string, at: Date) =>
      t.app.inject({
        method: 'POST',
        url: '/api/laps',
        headers: key,
        payload: {
          client_lap_id: id,
          sim: 'ac',
          track: 'rig_session_track',
          car: 'rig_session_car',
          lap_ms: 95_000,
          driver_guid: '76561190000000042',
          recorded_at: at.toISOString(),
        },
      });
    expect((await lap('during', new Date(halfHour().getTime() + 60_000))).statusCode).toBe(201);
    // Outside any booking the sim id still names its racer.
    expect((await lap('before', new Date(halfHour(-4).getTime()))).statusCode).toBe(201);
    const rows = await t.db
      .select({ source: laps.sourceKey, user: laps.userId })
      .from(laps)
      .where(eq(laps.calendarId, seats[0].id));
    expect(Object.fromEntries(rows.map((r) => [r.source.split(':')[2], r.user]))).toEqual({
      during: ada.id,
      before: owner.id,
    });
  });

  it('the customer extends their running session from the app too; someone else’s booking is not found', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const ada = await createUser(t);
    const bob = await createUser(t);
    await saveTestCard(t, ada);
    const id = await book(seats[0].id, halfHour(), ada.id);
    const ends = (await read(await rigKey(seats[0].id))).current.ends as string;
    const extend = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/reservations/${id}/extend`,
        headers: bearer(token),
        payload: { ends },
      });
    expect((await extend(bob.token)).statusCode).toBe(404);
    const res = await extend(ada.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ detail: 'Extended by 30 minutes.', paid: true });
    expect(new Date(res.json().ends).getTime()).toBe(halfHour(2).getTime());
  });
});
