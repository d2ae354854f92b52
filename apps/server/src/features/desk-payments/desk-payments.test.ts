import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { sentMails } from '../../test/sent-mail';
import { saveTestCard } from '../../test/cards';
import { DateTime } from 'luxon';
import { auditEvents } from '../../db/schema/audit';
import { charges } from '../../db/schema/payments';
import { reservations } from '../../db/schema/booking';

// Money taken at the desk (docs/decisions/0083): a charge with its method and who took it, which
// settles whole bookings oldest first.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let admin: CreatedUser;
let planner: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(3, zone);
let hour = 8;
// 4500 seat + 150 fee, 8.875 % tax → 5063 a booking.
const EACH = 5063;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    seats: 2,
    costCents: 4500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
  });
  admin = await createUser(t, {
    isStaff: true,
    firstName: 'Desk',
    lastName: 'Dana',
    permissions: ['reservations.change_reservation', 'user.change_user'],
  });
  planner = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const send = (method: 'GET' | 'POST', url: string, user?: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: user ? bearer(user.token) : {}, payload });

/** A customer with `n` unpaid bookings ("Book It!" without paying), oldest first. */
async function owing(n: number) {
  const user = await createUser(t);
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const slot = `${day}T${String(hour).padStart(2, '0')}:00`;
    hour += 1;
    const res = await send('POST', '/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot,
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().id);
  }
  return { user, ids };
}

let keys = 0;
const pay = (user: CreatedUser, body: Record<string, unknown>, by = admin) =>
  send('POST', `/api/users/${user.id}/desk_payments`, by, {
    idempotency_key: `test-key-${(keys += 1)}`,
    ...body,
  });
const balanceOf = async (user: CreatedUser) =>
  (await send('GET', '/api/users/me/balance', user)).json().amount_cents as number;
async function paidOf(ids: number[]) {
  const rows = await t.db.select().from(reservations);
  return ids.map((id) => rows.find((r) => r.id === id)?.paid);
}

describe('POST /users/:id/desk_payments', () => {
  it('records the whole balance in cash, marks it paid, mails a receipt and audits in words', async () => {
    const { user, ids } = await owing(2);
    const res = await pay(user, { method: 'cash', amount_cents: 2 * EACH, note: 'Till 2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      detail: 'All outstanding line items have been marked as Paid',
      reservations: ids,
      balance_cents: 0,
      charge: {
        amount_cents: 2 * EACH,
        method: 'cash',
        errors: '',
        charge_id: null,
        notes: 'Cash at the desk (2 bookings): Till 2',
      },
    });
    expect(await balanceOf(user)).toBe(0);
    expect(await paidOf(ids)).toEqual([true, true]);
    const [row] = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    expect(row).toMatchObject({ kind: 'desk', method: 'cash', takenById: admin.id });
    const settled = await t.db.select().from(reservations).where(eq(reservations.chargeId, row.id));
    expect(settled.map((r) => r.id).sort()).toEqual([...ids].sort());

    // The customer's transactions list says how it was paid.
    const list = (await send('GET', '/api/users/me/charges', user)).json();
    expect(list.results).toEqual([expect.objectContaining({ method: 'cash', amount: '101.26' })]);

    const mails = await sentMails(t, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Receipt: $101.26 paid at the desk');
    expect(mails[0].text).toContain('Cash');

    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.subjectUserId, user.id), eq(auditEvents.action, 'user.desk_payment')),
      );
    expect(audit.actorId).toBe(admin.id);
    expect(audit.before).toEqual({ owed: '$101.26', reservations: ids });
    expect(audit.after).toEqual({
      summary: 'Took $101.26 in cash for 2 bookings',
      method: 'cash',
      amount_cents: 2 * EACH,
      charge: row.id,
      note: 'Till 2',
    });
  });

  it('takes a part payment of whole bookings, oldest first, and refuses one that splits a booking', async () => {
    const { user, ids } = await owing(3);
    const split = await pay(user, { method: 'terminal', amount_cents: EACH + 1 });
    expect(split.statusCode).toBe(400);
    expect(split.json()).toEqual({
      amount_cents: [
        'A desk payment settles whole bookings, oldest first: $50.63, $101.26, $151.89.',
      ],
    });
    const more = await pay(user, { method: 'terminal', amount_cents: 3 * EACH + 1 });
    expect(more.json()).toEqual({ amount_cents: ['That is more than is owed ($151.89).'] });
    expect(await balanceOf(user)).toBe(3 * EACH);

    const part = await pay(user, { method: 'terminal', amount_cents: EACH });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({
      detail: '$50.63 recorded (card terminal).',
      reservations: [ids[0]],
      balance_cents: 2 * EACH,
    });
    expect(await paidOf(ids)).toEqual([true, false, false]);
    const rest = await pay(user, { method: 'bank_transfer', amount_cents: 2 * EACH });
    expect(rest.json()).toMatchObject({ reservations: ids.slice(1), balance_cents: 0 });
    const nothing = await pay(user, { method: 'other', amount_cents: 1 });
    expect(nothing.json()).toEqual({
      amount_cents: ['Nothing is outstanding for this customer.'],
    });
  });

  it('records a double click once, even when both arrive together', async () => {
    const { user } = await owing(2);
    const body = { method: 'cash', amount_cents: EACH, idempotency_key: 'dialog-abc-123' };
    const [a, b] = await Promise.all([pay(user, body), pay(user, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().charge.id).toBe(b.json().charge.id);
    expect(a.json().reservations).toEqual(b.json().reservations);
    const again = await pay(user, body);
    expect(again.json().charge.id).toBe(a.json().charge.id);
    expect(await t.db.select().from(charges).where(eq(charges.userId, user.id))).toHaveLength(1);
    expect(await balanceOf(user)).toBe(EACH);
    expect(await sentMails(t, user.email)).toHaveLength(1);
  });

  it('needs both staff permissions for the whole balance, and a customer who exists', async () => {
    const { user } = await owing(1);
    const body = { method: 'cash', amount_cents: EACH };
    expect((await pay(user, body, planner)).statusCode).toBe(403);
    expect((await pay(user, body, user)).statusCode).toBe(403);
    expect(
      (await send('POST', `/api/users/${user.id}/desk_payments`, undefined, body)).statusCode,
    ).toBe(401);
    const missing = await send('POST', '/api/users/2147483000/desk_payments', admin, {
      ...body,
      idempotency_key: 'missing-user-1',
    });
    expect(missing.statusCode).toBe(404);
    const bad = await pay(user, { method: 'cheque', amount_cents: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['amount_cents', 'method']);
    expect(await balanceOf(user)).toBe(EACH);
  });
});

describe('the planner permission alone (issue 41, decision 0116)', () => {
  it("takes the desk's own sale: the bookings it names, never the whole balance or another's", async () => {
    const older = await owing(1);
    const { user } = older;
    // The sale just made at the desk, to pay there (Book for a Customer → Book and Take Payment).
    const slot = `${day}T${String(hour).padStart(2, '0')}:00`;
    hour += 1;
    const booked = await send('POST', '/api/planner/book', planner, {
      user: user.id,
      slots: [{ calendar: venue.seats[1].id, slot }],
      payment: 'desk',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const due = booked.json().payment_due;
    expect(due).toEqual({
      user: user.id,
      currency: 'USD',
      total_cents: EACH,
      bookings: [{ id: booked.json().entries[0].id, amount_cents: EACH }],
    });
    const sale = due.bookings.map((b: { id: number }) => b.id);

    // Without naming the bookings: the whole balance is not the planner's to settle.
    const whole = await pay(user, { method: 'cash', amount_cents: EACH }, planner);
    expect(whole.statusCode).toBe(403);
    expect(whole.json().detail).toMatch(/name the bookings this payment is for/);
    // Someone else's booking, or one already paid, is refused by name.
    const stranger = await owing(1);
    const theirs = await pay(
      user,
      { method: 'cash', amount_cents: EACH, reservations: stranger.ids },
      planner,
    );
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toEqual({
      reservations: [`Booking ${stranger.ids[0]} is not an unpaid booking of this customer.`],
    });

    const paid = await pay(
      user,
      { method: 'terminal', amount_cents: EACH, reservations: sale },
      planner,
    );
    expect(paid.statusCode, paid.body).toBe(200);
    // Only the sale is settled, though an older booking was owed first.
    expect(paid.json()).toMatchObject({ reservations: sale, balance_cents: EACH });
    expect(await paidOf([...older.ids, ...sale])).toEqual([false, true]);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.subjectUserId, user.id), eq(auditEvents.action, 'user.desk_payment')),
      );
    expect(audit.actorId).toBe(planner.id);
  });
});

describe('refund of a desk payment', () => {
  it('is given back at the desk the same way: method, who, amount, note; no provider call', async () => {
    const { user, ids } = await owing(1);
    const paid = await pay(user, { method: 'cash', amount_cents: EACH });
    expect(paid.statusCode, paid.body).toBe(200);

    const quote = await send('GET', `/api/reservations/${ids[0]}/cancel_quote?refund=full`, admin);
    expect(quote.json().refund).toMatchObject({
      card_cents: EACH,
      lines: ['$50.63 given back at the desk (cash)'],
    });
    const res = await send('POST', `/api/reservations/${ids[0]}/cancel`, admin, {
      refund: 'full',
      reason: 'Rig broke',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ card_status: 'succeeded' });

    const rows = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    const refund = rows.find((r) => r.kind === 'refund')!;
    expect(refund).toMatchObject({
      amountCents: -EACH,
      method: 'cash',
      takenById: admin.id,
      errors: '',
      chargeRef: null,
    });
    expect(refund.notes).toMatch(/\$50\.63 given back in cash.*Rig broke/);
    const list = (await send('GET', '/api/users/me/charges?amount_cents__gt=0', user)).json();
    expect(
      list.results.map((c: { method: string; amount_cents: number }) => [c.method, c.amount_cents]),
    ).toEqual([
      ['cash', -EACH],
      ['cash', EACH],
    ]);
  });
});

describe('reports', () => {
  it('split takings by method: card online apart from each desk method', async () => {
    const owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
    const today = DateTime.now().setZone(zone).toISODate()!;
    const report = async () => {
      const res = await send(
        'GET',
        `/api/reports?location=${venue.location.id}&from=${today}&to=${today}`,
        owner,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().takings_by_method as Record<string, number>;
    };
    const before = await report();
    const byCard = await owing(1);
    // The customer pays what is owed online with a saved card, when asked (decision 0096).
    await saveTestCard(t, byCard.user);
    const paid = await send('POST', '/api/users/me/charges/capture_outstanding', byCard.user);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await balanceOf(byCard.user)).toBe(0);
    const atDesk = await owing(2);
    expect((await pay(atDesk.user, { method: 'other', amount_cents: EACH })).statusCode).toBe(200);
    expect((await pay(atDesk.user, { method: 'terminal', amount_cents: EACH })).statusCode).toBe(
      200,
    );
    const after = await report();
    const moved = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    expect(moved).toEqual({
      card_cents: EACH,
      cash_cents: 0,
      terminal_cents: EACH,
      bank_transfer_cents: 0,
      other_cents: EACH,
      total_cents: 3 * EACH,
      // Paid otherwise and what the takings hold (decision 0117): none here.
      voucher_cents: 0,
      credits_cents: 0,
      fees_cents: 0,
      tax_cents: 0,
    });
  });
});
