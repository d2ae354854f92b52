import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import {
  MOVED_MESSAGE,
  SAME_LOCATION_MESSAGE,
  SAME_PRICE_LINE,
  SAME_SLOT_MESSAGE,
} from '@paddock/contract/refunds';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { auditEvents } from '../../db/schema/audit';
import { outboxMessages } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { refunds } from '../../db/schema/refunds';
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
      charge_cents: 0,
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

  it('refuses another location, the same slot, and late moves', async () => {
    const user = await customer();
    const slot = freeSlot();
    const { id } = await book(user, venue.seats[0].id, slot);
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

describe('moving a paid booking to a dearer seat', () => {
  const moveCharges = (id: number) =>
    t.db
      .select()
      .from(charges)
      .where(like(charges.idempotencyKey, `move-${id}-%`))
      .orderBy(charges.id);

  it('charges the difference to the saved card once, and a cancel gives all of it back', async () => {
    const user = await customer();
    const { quote, id } = await book(user, venue.seats[0].id, freeSlot());
    const to = { calendar: dear.id, slot: freeSlot() };
    const q = await quoteMove(user, id, to.calendar, to.slot);
    expect(q.statusCode, q.body).toBe(200);
    // 6500 + 8.875 % tax (7077) against 4500 + tax (4899): 2178 cents more.
    expect(q.json()).toMatchObject({
      price_difference_cents: 2178,
      charge_cents: 2178,
      refund: null,
      lines: ['You pay $21.78 more, charged to your Visa ending 4242.'],
    });

    const res = await move(user, id, to);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ detail: MOVED_MESSAGE, charge_cents: 2178, refund: null });
    expect(await reservation(user, id)).toMatchObject({ ...to, paid: true });
    const [charge] = await moveCharges(id);
    expect(charge).toMatchObject({
      userId: user.id,
      amountCents: 2178,
      errors: '',
      kind: 'booking',
      idempotencyKey: `move-${id}-0`,
    });
    expect(charge.chargeRef).toBeTruthy();
    const transactions = (await send('GET', '/api/users/me/charges', user)).json();
    expect(JSON.stringify(transactions)).toContain('price difference');
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'reservation.move')));
    expect(audit.after).toMatchObject({ charged_cents: 2178, charge: charge.id });
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email));
    const receipt = mail.find((m) => m.subject.startsWith('Receipt: Motion Rig'))!;
    expect(receipt.html).toContain('$21.78');
    expect(receipt.text.replace(/\s+/g, ' ')).toContain('Price difference charged: $21.78');

    // Cancelling inside the window gives back everything paid: each charge its own part.
    const paid = quote.total_cents + 2178;
    const cq = (await send('GET', `/api/reservations/${id}/cancel_quote`, user)).json();
    expect(cq).toMatchObject({ paid_cents: paid, refund: { card_cents: paid } });
    const cancel = await send('POST', `/api/reservations/${id}/cancel`, user, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().refund).toMatchObject({
      card_status: 'succeeded',
      refund: { card_cents: paid, total_cents: paid },
    });
    const back = await t.db.select().from(refunds).where(eq(refunds.reservationId, id));
    expect(back.map((r) => [r.chargeId, r.cardCents])).toEqual(
      expect.arrayContaining([
        [charge.id, 2178],
        [expect.any(Number), quote.total_cents],
      ]),
    );
    expect(back).toHaveLength(2);
    const lines = await t.db
      .select()
      .from(charges)
      .where(and(eq(charges.userId, user.id), eq(charges.kind, 'refund')));
    expect(lines.map((l) => l.amountCents).sort()).toEqual([-2178, -quote.total_cents].sort());
    expect(lines.every((l) => l.errors === '')).toBe(true);
  });

  it('refunds a late cancel after a dearer move in proportion, never more than was paid', async () => {
    const user = await customer();
    const { quote, id } = await book(user, venue.seats[0].id, freeSlot());
    expect((await move(user, id, { calendar: dear.id, slot: freeSlot() })).statusCode).toBe(200);
    const paid = quote.total_cents + 2178;
    // A late cancel keeping half: half of everything paid comes back, newest charge first.
    await t.db.execute(
      sql`update locations set late_cancellation_keep_percent = 50, cancellation_window_hours = 24000 where id = ${venue.location.id}`,
    );
    try {
      const res = await send('POST', `/api/reservations/${id}/cancel`, staff, { refund: 'policy' });
      expect(res.statusCode, res.body).toBe(200);
      const refund = res.json().refund.refund;
      expect(refund.card_cents + refund.kept_cents).toBe(paid);
      expect(refund.card_cents).toBe(paid - Math.round(paid / 2));
      const rows = await t.db.select().from(refunds).where(eq(refunds.reservationId, id));
      expect(rows.reduce((n, r) => n + r.cardCents, 0)).toBe(refund.card_cents);
      expect(rows.every((r) => r.cardStatus === 'succeeded')).toBe(true);
    } finally {
      await t.db.execute(
        sql`update locations set late_cancellation_keep_percent = null, cancellation_window_hours = null where id = ${venue.location.id}`,
      );
    }
  });

  it('names the card when it is declined: not moved, nothing charged; a new card then works', async () => {
    const user = await customer();
    const slot = freeSlot();
    const { id } = await book(user, venue.seats[0].id, slot);
    await saveTestCard(t, user, '4000000000000341');
    const to = { calendar: dear.id, slot: freeSlot() };
    const res = await move(user, id, to);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toEqual(['card']);
    expect(await reservation(user, id)).toMatchObject({ calendar: venue.seats[0].id, slot });
    const attempts = await moveCharges(id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0].errors).toBe(res.json().card[0]);
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'reservation.move')));
    expect(audits).toHaveLength(0);

    await saveTestCard(t, user);
    const again = await move(user, id, to);
    expect(again.statusCode, again.body).toBe(200);
    const after = await moveCharges(id);
    expect(after.map((c) => [c.idempotencyKey, c.errors === ''])).toEqual([
      [`move-${id}-0`, false],
      [`move-${id}-1`, true],
    ]);
  });

  it('charges once when two moves of one booking race', async () => {
    const user = await customer();
    const { id } = await book(user, venue.seats[0].id, freeSlot());
    const to = { calendar: dear.id, slot: freeSlot() };
    const results = await Promise.all([move(user, id, to), move(user, id, to)]);
    expect(results.map((r) => r.statusCode).sort(), results[1].body + results[0].body).toEqual([
      200, 400,
    ]);
    const charged = await moveCharges(id);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ amountCents: 2178, errors: '' });
    expect(await reservation(user, id)).toMatchObject(to);
  });

  it('moves an unpaid booking to a dearer seat without charging', async () => {
    const user = await customer();
    const created = await send('POST', '/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot: freeSlot(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const res = await move(user, id, { calendar: dear.id, slot: freeSlot() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().charge_cents).toBe(0);
    expect(await moveCharges(id)).toHaveLength(0);
  });
});
