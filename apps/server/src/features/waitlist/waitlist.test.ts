import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { outboxMessages } from '../../db/schema/content';
import { waitlistEntries } from '../../db/schema/refunds';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { ALREADY_WAITING, SEATS_STILL_FREE } from './waitlist.service';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 3000 });
});
afterAll(() => t.close());

const post = (url: string, user: CreatedUser, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });
const mailTo = async (user: CreatedUser) =>
  t.db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email));
async function buy(user: CreatedUser, slot: string) {
  const q = await post('/api/reservations/checkouts/quote', user, {
    reservations: [{ calendar: venue.seats[0].id, slot }],
  });
  if (q.statusCode !== 200) return q;
  return post(`/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
}

describe('the waitlist', () => {
  it('tells everyone in order when a seat frees up and holds it for the first one', async () => {
    const slot = `${futureDate(6)}T19:00`;
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    for (const u of [a, b, c]) await saveTestCard(t, u);
    const join = (u: CreatedUser) =>
      post('/api/waitlist', u, { location: venue.location.id, slot });

    expect((await join(b)).json()).toEqual({ non_field_errors: [SEATS_STILL_FREE] });
    const booked = await buy(a, slot);
    expect(booked.statusCode, booked.body).toBe(200);
    const first = await join(b);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ position: 1, status: 'waiting' });
    expect((await join(c)).json()).toMatchObject({ position: 2 });
    expect((await join(c)).json()).toEqual({ non_field_errors: [ALREADY_WAITING] });

    const id = booked.json().reservations[0].id;
    expect((await post(`/api/reservations/${id}/cancel`, a)).statusCode).toBe(200);
    const [toB] = (await mailTo(b)).filter((m) => m.subject.startsWith('A seat freed up'));
    const [toC] = (await mailTo(c)).filter((m) => m.subject.startsWith('A seat freed up'));
    expect(toB.text).toContain('is held for you until');
    expect(toB.text).toContain(
      `/reservations/${venue.seats[0].id}?slot=${encodeURIComponent(slot)}`,
    );
    expect(toC.text).toContain('held for the first person on the waitlist');
    expect(toB.id).toBeLessThan(toC.id);

    // Held for b: every availability view shows it taken to c (and to anonymous callers), free to b.
    const date = slot.slice(0, 10);
    const get = (url: string, u?: CreatedUser) =>
      t.app.inject({ method: 'GET', url, headers: u ? bearer(u.token) : {} });
    const seatState = async (u?: CreatedUser) =>
      (await get(`/api/calendars/${venue.seats[0].id}/avail?date=${date}`, u)).json()[slot].state;
    expect(await seatState(c)).toBe('taken');
    expect(await seatState()).toBe('taken');
    expect(await seatState(b)).toBe('free');
    const parallel = (u: CreatedUser) =>
      get(
        `/api/calendars/parallel?date=${date}&location=${venue.location.id}&block=30&sessions=1&racers=1`,
        u,
      );
    const startsAt = (res: Awaited<ReturnType<typeof get>>) =>
      (res.json() as { slots: { slot: string }[] }[]).flatMap((s) => s.slots.map((x) => x.slot));
    expect(startsAt(await parallel(c))).not.toContain(slot);
    expect(startsAt(await parallel(b))).toContain(slot);
    const freeCount = async (u: CreatedUser) =>
      (
        (await get(`/api/avail/quote?date=${date}&location=${venue.location.id}`, u)).json() as {
          slot: string;
          available: number;
        }[]
      ).find((s) => s.slot === slot)!.available;
    expect(await freeCount(c)).toBe(0);
    expect(await freeCount(b)).toBe(1);

    // Held for b: c cannot have it, b can.
    expect((await buy(c, slot)).json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    expect((await buy(b, slot)).statusCode).toBe(200);
    const [entry] = await t.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, first.json().id));
    expect(entry.status).toBe('booked');
  });

  it('lets anyone book once the hold lapses', async () => {
    const slot = `${futureDate(7)}T19:00`;
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    for (const u of [a, b, c]) await saveTestCard(t, u);
    const booked = await buy(a, slot);
    await post('/api/waitlist', b, { location: venue.location.id, slot });
    await post(`/api/reservations/${booked.json().reservations[0].id}/cancel`, a);
    await t.db.update(waitlistEntries).set({ holdUntil: new Date(Date.now() - 1000) });
    expect((await buy(c, slot)).statusCode).toBe(200);
  });

  it("lists and leaves only the caller's own entries; leaving a hold passes the seat on", async () => {
    const slot = `${futureDate(8)}T19:00`;
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    for (const u of [a, b, c]) await saveTestCard(t, u);
    const booked = await buy(a, slot);
    const bJoin = await post('/api/waitlist', b, { location: venue.location.id, slot });
    const cJoin = await post('/api/waitlist', c, { location: venue.location.id, slot });
    const list = (u: CreatedUser) =>
      t.app.inject({ method: 'GET', url: '/api/waitlist', headers: bearer(u.token) });
    const leave = (u: CreatedUser, id: number | string) =>
      t.app.inject({ method: 'DELETE', url: `/api/waitlist/${id}`, headers: bearer(u.token) });

    expect((await list(a)).json()).toEqual([]);
    const mine = await list(c);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      {
        id: cJoin.json().id,
        location: venue.location.id,
        location_name: venue.location.name,
        slot,
        time: expect.any(String),
        status: 'waiting',
        position: 2,
        hold_until: null,
        calendar: null,
        calendar_name: null,
      },
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/waitlist' })).statusCode).toBe(401);

    // Someone else's entry does not exist for the caller; bad ids name the field.
    expect((await leave(a, bJoin.json().id)).statusCode).toBe(404);
    const bad = await leave(b, 'abc');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['id']);

    // The seat frees: held for b; b leaves, so it is held for c and c is told.
    await post(`/api/reservations/${booked.json().reservations[0].id}/cancel`, a);
    expect((await list(b)).json()[0]).toMatchObject({
      status: 'offered',
      position: null,
      calendar: venue.seats[0].id,
      calendar_name: venue.seats[0].name,
    });
    expect((await list(c)).json()[0]).toMatchObject({ status: 'waiting', position: 1 });
    expect((await leave(b, bJoin.json().id)).statusCode).toBe(204);
    expect((await list(b)).json()).toEqual([]);
    expect((await list(c)).json()[0]).toMatchObject({ status: 'offered' });
    const toC = (await mailTo(c)).filter((m) => m.text.includes('is held for you until'));
    expect(toC).toHaveLength(1);
    expect((await buy(b, slot)).json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    expect((await buy(c, slot)).statusCode).toBe(200);
    expect((await leave(b, bJoin.json().id)).statusCode).toBe(404);
  });

  it('names bad fields', async () => {
    const u = await createUser(t);
    const bad = await post('/api/waitlist', u, { location: 'x', slot: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['location', 'slot']);
    const gone = await post('/api/waitlist', u, {
      location: 999999,
      slot: `${futureDate(3)}T10:00`,
    });
    expect(Object.keys(gone.json())).toEqual(['location']);
  });
});
