import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, type Change } from '../../plugins/changes';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// A checkout announces the seats it booked (its claim's change, at that commit) and their being
// paid (after the finishing statement), paid or declined, all before the answer (decision 0094).

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let feed: ChangeFeed;
const changes: Change[] = [];
const cacheMessages: string[] = [];
const day = futureDate(7);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1 });
  feed = new ChangeFeed(t.deps.database.url);
  feed.subscribe((change) => changes.push(change));
  feed.subscribeCache((message) => message && cacheMessages.push(message));
  await feed.start();
});
afterAll(async () => {
  await feed.stop();
  await t.close();
});

describe('what a checkout announces', () => {
  it.each([
    ['paid', '4242424242424242', 200],
    ['declined', '4000000000000341', 402],
  ])('%s: its seat and its change, heard after the answer', async (_, card, status) => {
    changes.length = 0;
    cacheMessages.length = 0;
    const customer = await createUser(t);
    await saveTestCard(t, customer, card);
    const seat = venue.seats[0].id;
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: bearer(customer.token), payload });
    const q = await post('/api/reservations/checkouts/quote', {
      reservations: [{ calendar: seat, slot: `${day}T${status === 200 ? '10' : '11'}:00` }],
    });
    const res = await post(`/api/reservations/checkouts/${q.json().checkout_id}/process`, {});
    expect(res.statusCode).toBe(status);
    expect(await feed.sync()).toBe(true);
    expect(changes.filter((c) => c.topic === 'reservations')).toEqual([
      { seq: expect.any(Number), topic: 'reservations', id: seat },
    ]);
    expect(cacheMessages).toContain(`s:${seat}`);
  });
});
