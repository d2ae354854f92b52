import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { reservations } from '../../db/schema/booking';
import { waitlistEntries } from '../../db/schema/refunds';
import { clubMemberships, type MembershipStatus } from '../../db/schema/club';
import { settings } from '../../db/schema/content';
import { mergeSettings } from '../../plugins/settings';
import {
  BOOKING_ENTRY_POINTS,
  BOOKING_RULES,
  RULE_INPUT_MARK,
  type BookingEntryPoint,
} from './booking-rules';
import type { SQL } from 'drizzle-orm';
import { unpaidLimitMessage } from './unpaid-limit';
import { minimumStayMessage } from '@paddock/contract/calendars';
import { calendarTypes } from '../../db/schema/venue';
import { createCalendarType, createSeat } from '../../test/booking-factories';
import { clubMember } from '../../test/club-member';

// Every booking rule through every way in (booking-rules.ts): a rule one path forgets fails here,
// and so does a way in whose statements do not hold the rule's one definition.

const FEE = 150;
const COST = 4500;
let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let vr: { id: number }[];
const TOO_SHORT = minimumStayMessage('VR Rig', 120);
let day = 2;
/** A slot nobody else in this file uses. */
const freshSlot = () => `${futureDate(day++)}T18:00`;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3, costCents: COST, bookingFeeCents: FEE });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'calendars.change_calendar'],
  });
  const type = await createCalendarType(t, { name: 'VR Rig', isVr: true });
  await t.db.update(calendarTypes).set({ minMinutes: 120 }).where(eq(calendarTypes.id, type.id));
  vr = [
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: COST }),
    await createSeat(t, { locationId: venue.location.id, typeId: type.id, costCents: COST }),
  ];
});
afterAll(async () => {
  pg.Client.prototype.query = query;
  await t.close();
});

/** The SQL every case sends, to see which definitions its way in went through. */
const query = pg.Client.prototype.query;
let sent: string[] = [];
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
  if (text) sent.push(text);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

/** A SQL definition's text around its inputs: each piece must be in what the way in sent. */
const piecesOf = (definition: SQL) =>
  new PgDialect()
    .sqlToQuery(definition)
    .sql.split(RULE_INPUT_MARK)
    .map((piece) => piece.trim())
    .filter(Boolean);
const wentThrough = (definition: SQL) =>
  piecesOf(definition).every((piece) => sent.some((text) => text.includes(piece)));

const send = (method: 'POST' | 'PATCH', url: string, user: CreatedUser, payload: object = {}) =>
  t.app.inject({ method, url, headers: bearer(user.token), payload });
const customerBooks = (user: CreatedUser, calendar: number, slot: string) =>
  send('POST', '/api/reservations', user, { calendar, slot });
const staffBooks = (user: CreatedUser, calendar: number, slot: string) =>
  send('POST', '/api/reservations', staff, { calendar, slot, user: user.id });
const quote = (user: CreatedUser, calendar: number, slot: string) =>
  send('POST', '/api/reservations/checkouts/quote', user, { reservations: [{ calendar, slot }] });
const processIt = (user: CreatedUser, checkoutId: number) =>
  send('POST', `/api/reservations/checkouts/${checkoutId}/process`, user);
async function checkout(user: CreatedUser, calendar: number, slot: string) {
  const q = await quote(user, calendar, slot);
  expect(q.statusCode, q.body).toBe(200);
  return processIt(user, q.json().checkout_id);
}
/** A paid booking to move (through a checkout, with a card). */
async function paidBooking(user: CreatedUser, calendar: number, slot: string) {
  const p = await checkout(user, calendar, slot);
  expect(p.statusCode, p.body).toBe(200);
  return p.json().reservations[0].id as number;
}
/** The one move road through each of its doors, tried in turn on one booking (decision 0112). */
async function moveEveryDoor(user: CreatedUser, id: number, calendar: number, slot: string) {
  return [
    await send('POST', `/api/reservations/${id}/move`, user, { calendar, slot }),
    await send('PATCH', `/api/reservations/${id}`, user, { calendar, slot }),
    await send('POST', '/api/planner/move', staff, { reservation: id, calendar, slot }),
  ];
}
const deskBooks = (user: CreatedUser, calendar: number, slot: string | string[]) =>
  send('POST', '/api/planner/book', staff, {
    user: user.id,
    slots: [slot].flat().map((s) => ({ calendar, slot: s })),
    payment: 'desk',
  });
async function clubBooks(calendar: number, slot: string) {
  const { user, subscriptionId } = await clubMember(t);
  return send('POST', '/api/reservations', user, { calendar, slot, subscription: subscriptionId });
}
async function withCard() {
  const user = await createUser(t);
  await saveTestCard(t, user);
  return user;
}
const booked = (calendar: number, slot: string) =>
  t.db
    .select()
    .from(reservations)
    .where(eq(reservations.calendarId, calendar))
    .then((rows) => rows.filter((r) => r.slot === slot && r.cancelledAt === null));
async function newSeat() {
  const more = await createVenue(t, { seats: 1, costCents: COST, bookingFeeCents: FEE });
  return more.seats[0].id;
}
const deactivate = async (calendar: number) =>
  expect(
    (await send('PATCH', `/api/calendars/${calendar}`, staff, { active: false })).statusCode,
  ).toBe(200);
async function holdFor(calendar: number, slot: string) {
  const other = await createUser(t);
  await t.db.insert(waitlistEntries).values({
    userId: other.id,
    locationId: venue.location.id,
    slot,
    status: 'offered',
    heldCalendarId: calendar,
    holdUntil: new Date(Date.now() + 600_000),
  });
}
async function setUnpaidLimit(value: unknown) {
  await t.db
    .insert(settings)
    .values({ key: 'max_unpaid_reservations', value })
    .onConflictDoUpdate({ target: settings.key, set: { value } });
}
async function member(status: MembershipStatus) {
  const user = await withCard();
  await t.db.insert(clubMemberships).values({
    userId: user.id,
    status,
    creditsPerMonth: 40,
    fullPriceCents: 400,
    priceCents: 360,
    discountPercent: 10,
    cycleDay: 1,
    nextChargeOn: futureDate(20),
    startedAt: new Date(),
  });
  return user;
}

/** What a booking costs this user through one entry point (the fee is the only difference). */
async function amountThrough(
  entry: 'customer booking' | 'staff booking' | 'checkout' | 'desk booking',
  user: CreatedUser,
) {
  const seat = venue.seats[0].id;
  const slot = freshSlot();
  if (entry === 'desk booking') {
    const q = await send('POST', '/api/planner/book/quote', staff, {
      user: user.id,
      slots: [{ calendar: seat, slot }],
    });
    expect(q.statusCode, q.body).toBe(200);
    return q.json().total_cents as number;
  }
  if (entry === 'checkout') {
    const q = await quote(user, seat, slot);
    expect(q.statusCode, q.body).toBe(200);
    return q.json().total_cents as number;
  }
  const res = await (entry === 'customer booking' ? customerBooks : staffBooks)(user, seat, slot);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().amount_cents as number;
}

type Case = () => Promise<void>;
const cases: { [R in keyof typeof BOOKING_RULES]: Partial<Record<BookingEntryPoint, Case>> } = {
  'seat active': {
    'customer booking': async () => {
      const seat = await newSeat();
      await deactivate(seat);
      const slot = freshSlot();
      expect((await customerBooks(await createUser(t), seat, slot)).statusCode).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
    'staff booking': async () => {
      const seat = await newSeat();
      await deactivate(seat);
      const slot = freshSlot();
      expect((await staffBooks(await createUser(t), seat, slot)).statusCode).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
    checkout: async () => {
      // Quoted while active: the process's own statement must see the seat go.
      const seat = await newSeat();
      const user = await withCard();
      const slot = freshSlot();
      const q = await quote(user, seat, slot);
      expect(q.statusCode, q.body).toBe(200);
      await deactivate(seat);
      expect((await processIt(user, q.json().checkout_id)).statusCode).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
    move: async () => {
      const seat = await newSeat();
      await deactivate(seat);
      const user = await withCard();
      const id = await paidBooking(user, venue.seats[1].id, freshSlot());
      const slot = freshSlot();
      for (const res of await moveEveryDoor(user, id, seat, slot))
        expect(res.statusCode, res.body).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
    'desk booking': async () => {
      const seat = await newSeat();
      await deactivate(seat);
      const slot = freshSlot();
      expect((await deskBooks(await createUser(t), seat, slot)).statusCode).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
    'club booking': async () => {
      const seat = await newSeat();
      await deactivate(seat);
      const slot = freshSlot();
      expect((await clubBooks(seat, slot)).statusCode).toBe(400);
      expect(await booked(seat, slot)).toEqual([]);
    },
  },
  'waitlist hold': {
    'customer booking': async () => {
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      await holdFor(seat, slot);
      const res = await customerBooks(await createUser(t), seat, slot);
      expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    },
    'staff booking': async () => {
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      await holdFor(seat, slot);
      const res = await staffBooks(await createUser(t), seat, slot);
      expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    },
    checkout: async () => {
      // Held after the quote: the process's own statement must see the hold.
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      const user = await withCard();
      const q = await quote(user, seat, slot);
      expect(q.statusCode, q.body).toBe(200);
      await holdFor(seat, slot);
      const res = await processIt(user, q.json().checkout_id);
      expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
      expect(await booked(seat, slot)).toEqual([]);
    },
    move: async () => {
      const user = await withCard();
      const id = await paidBooking(user, venue.seats[1].id, freshSlot());
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      await holdFor(seat, slot);
      for (const res of await moveEveryDoor(user, id, seat, slot))
        expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
      expect(await booked(seat, slot)).toEqual([]);
    },
    'desk booking': async () => {
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      await holdFor(seat, slot);
      const res = await deskBooks(await createUser(t), seat, slot);
      expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    },
    'club booking': async () => {
      const [seat, slot] = [venue.seats[2].id, freshSlot()];
      await holdFor(seat, slot);
      const res = await clubBooks(seat, slot);
      expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    },
  },
  'unpaid limit': {
    'customer booking': async () => {
      await setUnpaidLimit(1);
      const user = await createUser(t);
      expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      const second = await customerBooks(user, venue.seats[0].id, freshSlot());
      expect(second.json()).toEqual({ non_field_errors: [unpaidLimitMessage(1)] });
    },
    checkout: async () => {
      await setUnpaidLimit(1);
      const user = await createUser(t);
      expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      const res = await checkout(user, venue.seats[0].id, freshSlot());
      expect(res.json()).toEqual({ non_field_errors: [unpaidLimitMessage(1)] });
    },
  },
  'unpaid limit spares staff': {
    'staff booking': async () => {
      // Held to the limit nowhere else: staff book for a customer past it.
      await setUnpaidLimit(1);
      const user = await createUser(t);
      expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      expect((await staffBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
    },
    'desk booking': async () => {
      await setUnpaidLimit(1);
      const user = await createUser(t);
      expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      expect((await deskBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
    },
  },
  'unpaid limit setting': {
    // 0 is below the contract's minimum: both readings must fall back to the default (4).
    'customer booking': async () => {
      await setUnpaidLimit(0);
      const user = await createUser(t);
      for (let i = 0; i < 4; i++)
        expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      const fifth = await customerBooks(user, venue.seats[0].id, freshSlot());
      expect(fifth.json()).toEqual({ non_field_errors: [unpaidLimitMessage(4)] });
    },
    checkout: async () => {
      await setUnpaidLimit(0);
      const user = await createUser(t);
      for (let i = 0; i < 4; i++)
        expect((await customerBooks(user, venue.seats[0].id, freshSlot())).statusCode).toBe(201);
      const res = await checkout(user, venue.seats[0].id, freshSlot());
      expect(res.json()).toEqual({ non_field_errors: [unpaidLimitMessage(4)] });
    },
  },
  'club standing': Object.fromEntries(
    (['customer booking', 'staff booking', 'checkout', 'desk booking'] as const).map((entry) => [
      entry,
      async () => {
        await setUnpaidLimit(100);
        const active = await amountThrough(entry, await member('active'));
        const lapsed = await amountThrough(entry, await member('past_due'));
        const none = await amountThrough(entry, await withCard());
        expect(lapsed).toBe(none);
        expect(active).toBe(none - FEE);
      },
    ]),
  ),
  'seat-type minimum': {
    'customer booking': async () => {
      const res = await customerBooks(await createUser(t), vr[0].id, freshSlot());
      expect(res.json()).toEqual({ slot: [TOO_SHORT] });
    },
    'staff booking': async () => {
      const res = await staffBooks(await createUser(t), vr[0].id, freshSlot());
      expect(res.json()).toEqual({ slot: [TOO_SHORT] });
    },
    checkout: async () => {
      const res = await quote(await withCard(), vr[0].id, freshSlot());
      expect(res.json()).toEqual({ 'reservations.0.slot': [TOO_SHORT] });
    },
    move: async () => {
      // One half-hour out of a 2-hour visit, through every door; the whole visit moves.
      const user = await withCard();
      const date = futureDate(day++);
      const times = ['10:00', '10:30', '11:00', '11:30'].map((time) => `${date}T${time}`);
      const visit = await deskBooks(user, vr[0].id, times);
      expect(visit.statusCode, visit.body).toBe(201);
      const ids = (visit.json().entries as { id: number; slot: string }[])
        .sort((a, b) => a.slot.localeCompare(b.slot))
        .map((e) => e.id);
      for (const res of await moveEveryDoor(user, ids[0], vr[1].id, times[0]))
        expect(res.json()).toEqual({ slot: [TOO_SHORT] });
      expect(await booked(vr[1].id, times[0])).toEqual([]);
      const whole = await send('POST', `/api/reservations/${ids[0]}/move`, user, {
        calendar: vr[1].id,
        slot: times[0],
        run: true,
      });
      expect(whole.statusCode, whole.body).toBe(200);
      for (const time of times) expect(await booked(vr[1].id, time)).toHaveLength(1);
    },
    'desk booking': async () => {
      const res = await deskBooks(await createUser(t), vr[0].id, freshSlot());
      expect(res.json()).toEqual({ 'slots.0.slot': [TOO_SHORT] });
    },
    'club booking': async () => {
      const res = await clubBooks(vr[0].id, freshSlot());
      expect(res.json()).toEqual({ slot: [TOO_SHORT] });
    },
  },
};

describe('booking rules', () => {
  it('has a case for every rule on every entry point it names, and names only real ones', () => {
    for (const [rule, { on }] of Object.entries(BOOKING_RULES)) {
      const mine = cases[rule as keyof typeof cases];
      expect(Object.keys(mine).sort(), rule).toEqual([...on].sort());
      for (const entry of on) expect(BOOKING_ENTRY_POINTS).toContain(entry);
    }
  });

  for (const [rule, { on, definition }] of Object.entries(BOOKING_RULES))
    for (const entry of on) {
      const run = cases[rule as keyof typeof cases][entry];
      if (!run) continue;
      it(`${rule}: holds on ${entry}, through its one definition`, async () => {
        sent = [];
        await run();
        // A SQL rule: its text is in what this way in sent (no copy of it decided instead).
        if (typeof definition !== 'function') expect(wentThrough(definition)).toBe(true);
        // The setting parsed once (mergeSettings): no statement reads the stored value itself.
        if (definition === mergeSettings)
          expect(sent.filter((text) => text.includes('max_unpaid_reservations'))).toEqual([]);
      });
    }
});
