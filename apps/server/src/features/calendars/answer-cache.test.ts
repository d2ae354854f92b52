import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { reservations } from '../../db/schema/booking';
import { ChangeFeed } from '../../plugins/changes';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { saveTestCard } from '../../test/cards';
import { AnswerCache } from './answer-cache';

let t: TestApp;
let twin: Awaited<ReturnType<TestApp['sibling']>>;
let venue: Awaited<ReturnType<typeof createVenue>>;
let booker: CreatedUser;
let reader: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(2, zone);

beforeAll(async () => {
  t = await createTestApp();
  twin = await t.sibling();
  venue = await createVenue(t, { seats: 2, timezone: zone });
  [booker, reader] = [await createUser(t), await createUser(t)];
});
afterAll(async () => {
  await twin.close();
  await t.close();
});
// The clock stands still, so a remembered answer is always within its second: only an
// announcement can make an instance compute it again.
afterEach(() => vi.useRealTimers());
const freezeClock = () => vi.useFakeTimers({ toFake: ['Date'], now: new Date() });

describe('availability kept in memory, on two instances', () => {
  it('never shows a seat booked on instance A as free on instance B', async () => {
    freezeClock();
    const seat = venue.seats[0].id;
    const slot = `${day}T14:00`;
    const avail = () =>
      twin.app.inject({
        url: `/api/calendars/${seat}/avail?date=${day}`,
        headers: bearer(reader.token),
      });
    const parallel = () =>
      twin.app.inject({
        url: `/api/calendars/parallel?date=${day}&block=30&location=${venue.location.id}&sessions=1&racers=2`,
        headers: bearer(reader.token),
      });
    const starts = async () =>
      ((await parallel()).json() as { id: number; slots: { slot: string }[] }[])
        .find((s) => s.id === seat)
        ?.slots.map((s) => s.slot) ?? [];
    // Twice each on B: the second answer comes from memory.
    for (let i = 0; i < 2; i++) {
      expect((await avail()).json()[slot].state).toBe('free');
      expect(await starts()).toContain(slot);
    }

    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(booker.token),
      payload: { calendar: seat, slot },
    });
    expect(booked.statusCode).toBe(201);

    // The commit is announced before A answers; B hears it before it answers again.
    const after = await avail();
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-type']).toMatch(/^application\/json/);
    expect(after.json()[slot]).toMatchObject({ state: 'taken', available: false });
    expect(await starts()).not.toContain(slot);
  });

  it('never shows a seat paid for by checkout on instance A as free on instance B', async () => {
    freezeClock();
    const seat = venue.seats[1].id;
    const slot = `${day}T18:00`;
    const avail = () =>
      twin.app.inject({
        url: `/api/calendars/${seat}/avail?date=${day}`,
        headers: bearer(reader.token),
      });
    for (let i = 0; i < 2; i++) expect((await avail()).json()[slot].state).toBe('free');

    await saveTestCard(t, booker);
    const quoted = await t.app.inject({
      method: 'POST',
      url: '/api/reservations/checkouts/quote',
      headers: bearer(booker.token),
      payload: { reservations: [{ calendar: seat, slot }] },
    });
    expect(quoted.statusCode).toBe(200);
    const processed = await t.app.inject({
      method: 'POST',
      url: `/api/reservations/checkouts/${quoted.json().checkout_id}/process`,
      headers: bearer(booker.token),
      payload: {},
    });
    expect(processed.statusCode).toBe(200);
    expect(processed.json().status).toBe('paid');

    expect((await avail()).json()[slot]).toMatchObject({ state: 'taken', available: false });
  });

  it('forgets a user-specific answer when that user books elsewhere', async () => {
    freezeClock();
    const seat = venue.seats[1].id;
    const slot = `${day}T16:00`;
    const avail = () =>
      twin.app.inject({
        url: `/api/calendars/${seat}/avail?date=${day}`,
        headers: bearer(booker.token),
      });
    expect((await avail()).json()[slot].state).toBe('free');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/reservations',
          headers: bearer(booker.token),
          payload: { calendar: seat, slot },
        })
      ).statusCode,
    ).toBe(201);
    expect((await avail()).json()[slot].state).toBe('mine_unpaid');
  });
});

describe('AnswerCache', () => {
  it('computes once, and again only after a reservation of its location is announced', async () => {
    freezeClock();
    const feed = new ChangeFeed(t.deps.database.url);
    await feed.start();
    try {
      const cache = new AnswerCache(feed);
      const [seat, otherSeat] = venue.seats.map((s) => s.id);
      let computed = 0;
      const compute = async () => {
        computed++;
        return {
          value: { n: computed },
          locationId: venue.location.id,
          seatIds: [seat, otherSeat],
        };
      };
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":1}');
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":1}');
      expect(computed).toBe(1);

      // A write through another connection (no app code at all): the trigger announces it.
      await t.db.insert(reservations).values({
        calendarId: otherSeat,
        slot: `${day}T20:00`,
        time: new Date(Date.now() + 3 * 86400_000),
        userId: null,
        isBlackout: true,
      });
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":2}');
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":2}');
      expect(computed).toBe(2);

      // Without the feed nothing is remembered.
      await feed.stop();
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":3}');
      expect(await cache.answer('k', () => feed.sync(), compute)).toBe('{"n":4}');
    } finally {
      await feed.stop();
    }
  });
});
