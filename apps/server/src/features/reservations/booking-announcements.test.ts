import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, type Change } from '../../plugins/changes';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// The single-statement writes (decision 0046) announce what publishChange announced: the change
// (topic, seat) for the event streams, and `s:<seat>` for the caches of every instance.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let customer: CreatedUser;
let feed: ChangeFeed;
const changes: Change[] = [];
const cacheMessages: string[] = [];
const day = futureDate(5);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2 });
  customer = await createUser(t);
  await saveTestCard(t, customer);
  feed = new ChangeFeed(t.deps.database.url);
  feed.subscribe((change) => changes.push(change));
  feed.subscribeCache((message) => message && cacheMessages.push(message));
  await feed.start();
});
afterAll(async () => {
  await feed.stop();
  await t.close();
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(customer.token), payload });

describe('what a booking announces', () => {
  it('a booking: its change and its seat, heard after the answer', async () => {
    const seat = venue.seats[0].id;
    const res = await post('/api/reservations', { calendar: seat, slot: `${day}T18:00` });
    expect(res.statusCode).toBe(201);
    expect(await feed.sync()).toBe(true);
    expect(changes.filter((c) => c.topic === 'reservations')).toEqual([
      { seq: expect.any(Number), topic: 'reservations', id: seat },
    ]);
    expect(cacheMessages).toContain(`s:${seat}`);
  });

  it('a refused booking announces nothing', async () => {
    changes.length = 0;
    const res = await post('/api/reservations', {
      calendar: venue.seats[0].id,
      slot: `${day}T18:00`,
    });
    expect(res.statusCode).toBe(400);
    expect(await feed.sync()).toBe(true);
    expect(changes).toEqual([]);
  });

  it('a processed checkout: one change per seat', async () => {
    changes.length = 0;
    const seats = venue.seats.map((s) => s.id);
    const q = await post('/api/reservations/checkouts/quote', {
      reservations: seats.map((calendar) => ({ calendar, slot: `${day}T19:00` })),
    });
    const res = await post(`/api/reservations/checkouts/${q.json().checkout_id}/process`, {});
    expect(res.statusCode).toBe(200);
    expect(await feed.sync()).toBe(true);
    expect(changes.map((c) => [c.topic, c.id]).sort()).toEqual(
      seats.map((id) => ['reservations', id]).sort(),
    );
  });
});
