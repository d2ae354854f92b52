import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import {
  DEARER_SEAT_MESSAGE,
  MOVED_MESSAGE,
  SAME_LOCATION_MESSAGE,
  SAME_PRICE_LINE,
  SAME_SLOT_MESSAGE,
} from '@paddock/contract/refunds';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { auditEvents } from '../../db/schema/audit';
import { outboxMessages } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { waitlistEntries } from '../../db/schema/refunds';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createSeat, createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let cheap: Awaited<ReturnType<typeof createSeat>>;
let dear: Awaited<ReturnType<typeof createSeat>>;
let elsewhere: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';
let slotDay = 3;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 3, costCents: 4500, salesTaxRatePercent: '8.875' });
  cheap = await createSeat(t, {
    locationId: venue.location.id,
    typeId: venue.type.id,
    name: 'Budget Rig',
    costCents: 2500,
  });
  dear = await createSeat(t, {
    locationId: venue.location.id,
    typeId: venue.type.id,
    name: 'Motion Rig',
    costCents: 6500,
  });
  elsewhere = await createVenue(t, { seats: 1, costCents: 4500 });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['vouchers.add_voucher', 'reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const send = (method: 'GET' | 'POST', url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const freeSlot = (hhmm = '18:00') => `${futureDate(slotDay++, zone)}T${hhmm}`;
const customer = async () => {
  const user = await createUser(t);
  await saveTestCard(t, user);
  return user;
};
async function book(user: CreatedUser, calendar: number, slot: string, voucher?: string) {
  const q = await send('POST', '/api/reservations/checkouts/quote', user, {
    reservations: [{ calendar, slot }],
    ...(voucher ? { voucher } : {}),
  });
  expect(q.statusCode, q.body).toBe(200);
  const p = await send('POST', `/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
  expect(p.statusCode, p.body).toBe(200);
  return { quote: q.json(), id: p.json().reservations[0].id as number };
}
const move = (user: CreatedUser, id: number, body: object) =>
  send('POST', `/api/reservations/${id}/move`, user, body);
const quoteMove = (user: CreatedUser, id: number, calendar: number | string, slot: string) =>
  send('GET', `/api/reservations/${id}/move_quote?calendar=${calendar}&slot=${slot}`, user);
const reservation = async (user: CreatedUser, id: number) =>
  (await send('GET', `/api/reservations/${id}`, user)).json();

describe('moving a booking', () => {
  it('moves to another time on a seat of the same price, keeping the payment', async () => {
    const user = await customer();
    const { quote, id } = await book(user, venue.seats[0].id, freeSlot());
    const to = { calendar: venue.seats[1].id, slot: freeSlot('19:30') };
    const q = await quoteMove(user, id, to.calendar, to.slot);
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toEqual({
      reservation: id,
      calendar: to.calendar,
      calendar_name: 'Sim 2',
      slot: to.slot,
      price_difference_cents: 0,
      refund: null,
      lines: [SAME_PRICE_LINE],
    });
    const res = await move(user, id, to);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ detail: MOVED_MESSAGE, refund: null, ...to });
    expect(await reservation(user, id)).toMatchObject({
      calendar: to.calendar,
      slot: to.slot,
      paid: true,
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'reservation.move')));
    expect(audit.actorId).toBe(user.id);
    // The payment moved with it: cancelling now gives all of it back.
    const cancelQuote = await send('GET', `/api/reservations/${id}/cancel_quote`, user);
    expect(cancelQuote.json().refund.card_cents).toBe(quote.total_cents);
  });

  it('gives the difference of a cheaper seat back as it was paid (card and voucher), then the rest on cancel', async () => {
    const user = await customer();
    const code = (await send('POST', '/api/vouchers', staff, { amount_cents: 1000 })).json().code;
    const { quote, id } = await book(user, venue.seats[0].id, freeSlot(), code);
    expect(quote.discount_cents).toBe(1000);
    const to = { calendar: cheap.id, slot: freeSlot() };
    const q = await quoteMove(user, id, to.calendar, to.slot);
    expect(q.statusCode, q.body).toBe(200);
    // 4500 + 8.875 % tax (4899) against 2500 + tax (2722): 2177 cents less.
    expect(q.json().price_difference_cents).toBe(-2177);
    const back = q.json().refund;
    expect(back.card_cents + back.voucher_cents).toBe(2177);
    expect(back.voucher_cents).toBeGreaterThan(0);
    expect(back.card_cents).toBeGreaterThan(0);
    expect(q.json().lines[0]).toBe('The new seat costs $21.77 less:');
    expect(q.json().lines).toContain(
      `$${(back.card_cents / 100).toFixed(2)} back to your Visa ending 4242`,
    );

    const res = await move(user, id, to);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ card_status: 'succeeded', refund: back });
    const [line] = await t.db
      .select()
      .from(charges)
      .where(and(eq(charges.userId, user.id), eq(charges.kind, 'refund')));
    expect(line.amountCents).toBe(-back.card_cents);
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email));
    const receipt = mail.find((m) => m.subject.startsWith('Refund receipt'))!;
    expect(receipt.text.replace(/\s+/g, ' ')).toContain(
      'moved there; the price difference comes back',
    );

    // What is left comes back on cancel: all of it together is exactly what was paid.
    const rest = (await send('POST', `/api/reservations/${id}/cancel`, user, {})).json().refund;
    expect(rest.refund.card_cents + back.card_cents).toBe(quote.total_cents);
    expect(rest.refund.voucher_cents + back.voucher_cents).toBe(1000);
  });

  it('refuses a dearer seat for a paid booking, another location, the same slot, and late moves', async () => {
    const user = await customer();
    const slot = freeSlot();
    const { id } = await book(user, venue.seats[0].id, slot);
    const dearer = await move(user, id, { calendar: dear.id, slot });
    expect(dearer.statusCode).toBe(400);
    expect(dearer.json()).toEqual({ calendar: [DEARER_SEAT_MESSAGE] });
    expect((await move(user, id, { calendar: elsewhere.seats[0].id, slot })).json()).toEqual({
      calendar: [SAME_LOCATION_MESSAGE],
    });
    expect((await move(user, id, { calendar: venue.seats[0].id, slot })).json()).toEqual({
      slot: [SAME_SLOT_MESSAGE],
    });

    const lateSlot = DateTime.now()
      .setZone(zone)
      .plus({ hours: 4 })
      .startOf('hour')
      .toFormat("yyyy-MM-dd'T'HH:mm");
    const late = await book(user, venue.seats[2].id, lateSlot);
    const res = await move(user, late.id, { calendar: venue.seats[1].id, slot: freeSlot() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      non_field_errors: ['A paid booking can be moved until 24 hours before it starts.'],
    });
  });

  it("is the owner's only, and names bad fields", async () => {
    const [user, other] = [await customer(), await customer()];
    const slot = freeSlot();
    const { id } = await book(user, venue.seats[0].id, slot);
    const to = { calendar: venue.seats[1].id, slot };
    expect((await move(other, id, to)).statusCode).toBe(404);
    expect((await quoteMove(other, id, to.calendar, to.slot)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/reservations/${id}/move`, payload: to }))
        .statusCode,
    ).toBe(401);
    const bad = await move(user, id, { calendar: 'x', slot: 'soon' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['calendar', 'slot']);
    const partial = await send('GET', `/api/reservations/${id}/move_quote?slot=${slot}`, user);
    expect(partial.json()).toEqual({ calendar: ['This field is required.'] });
    const gone = await move(user, id, { calendar: 999999, slot });
    expect(Object.keys(gone.json())).toEqual(['calendar']);
    const extra = await move(user, id, { ...to, paid: true });
    expect(extra.statusCode).toBe(400);
    // Staff may move any customer's booking through the same rules.
    expect((await move(staff, id, to)).statusCode).toBe(200);
  });

  it('lets one of two moves to the same seat win; a held seat is refused', async () => {
    const [a, b] = [await customer(), await customer()];
    const slot = freeSlot();
    const one = await book(a, venue.seats[0].id, slot);
    const two = await book(b, venue.seats[1].id, slot);
    const to = { calendar: venue.seats[2].id, slot };
    const results = await Promise.all([move(a, one.id, to), move(b, two.id, to)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const lost = results.find((r) => r.statusCode === 400)!;
    expect(lost.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });

    // A seat held for someone on the waitlist is not free to move onto.
    const c = await customer();
    const heldSlot = freeSlot();
    await t.db.insert(waitlistEntries).values({
      userId: c.id,
      locationId: venue.location.id,
      slot: heldSlot,
      status: 'offered',
      heldCalendarId: venue.seats[1].id,
      holdUntil: new Date(Date.now() + 600_000),
    });
    const winner = results[0].statusCode === 200 ? { u: a, id: one.id } : { u: b, id: two.id };
    const held = await move(winner.u, winner.id, { calendar: venue.seats[1].id, slot: heldSlot });
    expect(held.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
  });
});
