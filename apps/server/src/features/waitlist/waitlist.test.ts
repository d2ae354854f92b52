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
    expect(toB.html).toContain(`/reservations/${venue.seats[0].id}`);
    expect(toC.text).toContain('held for the first person on the waitlist');
    expect(toB.id).toBeLessThan(toC.id);

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
