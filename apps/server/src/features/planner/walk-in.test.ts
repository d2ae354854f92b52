import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue } from '../../test/booking-factories';
import { sentMails } from '../../test/sent-mail';
import { auditEvents } from '../../db/schema/audit';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';
import { slotAround } from './planner.service';
import { cutAtAudit } from '../../test/cut-at-audit';

// Walk-in now (issue 41, decision 0117): the desk's booking and its payment in one request.

let t: TestApp;
let desk: CreatedUser;
// Holds the planner permission only: the walk-in's payment is for the sale it just made (0116).
let planner: CreatedUser;
let venue: Awaited<ReturnType<typeof createVenue>>;
const zone = 'America/Los_Angeles';
let key = 0;

beforeAll(async () => {
  t = await createTestApp();
  desk = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'user.change_user'],
  });
  planner = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
  venue = await createVenue(t, {
    seats: 5,
    costCents: 4500,
    bookingFeeCents: 150,
    salesTaxRatePercent: '8.875',
  });
});
afterAll(() => t.close());

const walkIn = (payload: object, who = desk) =>
  t.app.inject({
    method: 'POST',
    url: '/api/planner/walk_in',
    headers: bearer(who.token),
    payload: {
      half_hours: 2,
      method: 'cash',
      idempotency_key: `walk-in-test-${++key}`,
      ...payload,
    },
  });

const liveOn = (calendarId: number) =>
  t.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.calendarId, calendarId), isNull(reservations.cancelledAt)));

describe('walk-in now', () => {
  it('books the current half-hour and the next on a free seat, takes the cash, mails one receipt', async () => {
    const seat = venue.seats[0].id;
    const before = slotAround(new Date(), zone);
    // The price before the tap (issue 41): the desk's one rule, for a customer not known yet.
    const shown = await t.app.inject({
      method: 'POST',
      url: '/api/planner/walk_in/quote',
      headers: bearer(planner.token),
      payload: { calendar: seat, half_hours: 2, email: 'wanda@example.com' },
    });
    expect(shown.statusCode, shown.body).toBe(200);
    // 2 × $45.00 + 2 × $1.50 fees = $93.00; 8.875 % tax = $8.25.
    expect(shown.json()).toMatchObject({ subtotal_cents: 9300, tax_cents: 825, total_cents: 10125 });
    const res = await walkIn({ calendar: seat, name: 'Wanda Walker', email: 'wanda@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const after = slotAround(new Date(), zone);
    const start = body.entries[0].slot as string;
    expect([before, after]).toContain(start);
    expect(body.entries).toHaveLength(2);
    expect(body.entries.every((e: { paid: boolean }) => e.paid)).toBe(true);

    // One price rule: the desk's quote for the same times is what was taken.
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/planner/book/quote',
      headers: bearer(desk.token),
      payload: {
        user: body.user,
        slots: body.entries.map((e: { slot: string }) => ({ calendar: seat, slot: e.slot })),
      },
    });
    const total = quote.json().total_cents as number;
    expect(total).toBe(10125);
    expect(body.charge).toMatchObject({ amount_cents: total, method: 'cash' });
    expect(body.detail).toBe(
      `Sim 1 booked for 1 hour: $${(total / 100).toFixed(2)} taken in cash.`,
    );

    const rows = await liveOn(seat);
    expect(rows.map((r) => r.userId)).toEqual([body.user, body.user]);
    expect(rows.every((r) => r.paid && r.chargeId === body.charge.id)).toBe(true);
    expect(rows.reduce((n, r) => n + r.amountCents, 0)).toBe(total);
    const [charge] = await t.db.select().from(charges).where(eq(charges.id, body.charge.id));
    expect(charge).toMatchObject({ kind: 'desk', method: 'cash', takenById: desk.id });

    const [customer] = await t.db.select().from(users).where(eq(users.id, body.user));
    expect(customer).toMatchObject({
      firstName: 'Wanda',
      lastName: 'Walker',
      email: 'wanda@example.com',
    });
    const mails = await sentMails(t, 'wanda@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Receipt: $${(total / 100).toFixed(2)} paid at the desk`);
    expect(mails[0].text).toContain('Sim 1');
    expect(mails[0].text).toContain('Cash');
    // The checkout's lines (seats, fees, tax), then what was paid: the split stored at the sale.
    const text = (mails[0].text ?? '').replace(/\s+/g, ' ');
    expect(text).toMatch(/Seats:? \$90\.00 Booking fees:? \$3\.00 Tax:? \$8\.25 Paid:? \$101\.25/);
    expect(rows.map((r) => [r.bookingFeeCents, r.taxCents])).toEqual([
      [150, 413],
      [150, 412],
    ]);

    const trail = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.subjectUserId, body.user));
    expect(trail.map((a) => a.action).sort()).toEqual([
      'planner.book',
      'user.create_customer',
      'user.desk_payment',
    ]);
  });

  it('takes a name alone (no mail), and a returning customer’s e-mail books on their account', async () => {
    const nameOnly = await walkIn({
      calendar: venue.seats[1].id,
      name: 'Nico',
      half_hours: 1,
      method: 'terminal',
    });
    expect(nameOnly.statusCode, nameOnly.body).toBe(201);
    const [nico] = await t.db.select().from(users).where(eq(users.id, nameOnly.json().user));
    expect(nico).toMatchObject({ firstName: 'Nico', lastName: '', email: '' });
    expect(nameOnly.json().charge.method).toBe('terminal');
    expect(nameOnly.json().detail).toMatch(
      /^Sim 2 booked for 30 minutes: \$\d+\.\d\d taken on the card terminal\.$/,
    );

    const regular = await createUser(t, { email: 'regular@example.com', firstName: 'Rae' });
    const again = await walkIn({
      calendar: venue.seats[2].id,
      name: 'Rae Regular',
      email: 'REGULAR@example.com',
      method: 'bank_transfer',
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().user).toBe(regular.id);
    expect(await sentMails(t, 'regular@example.com')).toHaveLength(1);
  });

  it('refuses a seat already taken now, leaving no account, booking or payment behind', async () => {
    const seat = venue.seats[0].id; // Wanda's
    const people = await t.db.select({ id: users.id }).from(users);
    const res = await walkIn({ calendar: seat, name: 'Late Larry', email: 'larry@example.com' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().non_field_errors).toHaveLength(1);
    expect(await liveOn(seat)).toHaveLength(2);
    expect(await t.db.select({ id: users.id }).from(users)).toHaveLength(people.length);
    expect(await sentMails(t, 'larry@example.com')).toHaveLength(0);
  });

  it('killed between the booking and the desk charge, or at the charge: nothing half-done, and the retry sells once', async () => {
    const seat = venue.seats[4].id;
    const email = 'cut@example.com';
    for (const at of ['planner.book', 'user.desk_payment']) {
      const cut = await cutAtAudit(t.deps.database.url, at);
      try {
        const res = await walkIn({ calendar: seat, name: 'Cut Short', email }, planner);
        expect(res.statusCode, `${at}: ${res.body}`).toBeGreaterThanOrEqual(500);
      } finally {
        await cut.close();
      }
      // The one transaction rolled back whole: no booking, no account, no payment, no mail.
      expect(await liveOn(seat), at).toHaveLength(0);
      expect(await t.db.select().from(users).where(eq(users.email, email)), at).toHaveLength(0);
      expect(await sentMails(t, email), at).toHaveLength(0);
    }
    // The desk taps again (the dialog keeps its key): one sale, one payment, one mail.
    const again = await walkIn(
      { calendar: seat, name: 'Cut Short', email, idempotency_key: 'walk-in-cut-retry' },
      planner,
    );
    expect(again.statusCode, again.body).toBe(201);
    expect(await liveOn(seat)).toHaveLength(2);
    const paid = await t.db.select().from(charges).where(eq(charges.userId, again.json().user));
    expect(paid).toHaveLength(1);
    expect(await sentMails(t, email)).toHaveLength(1);
  });

  it('answers bad input with a 400 naming the field', async () => {
    const seat = venue.seats[3].id;
    const cases: [object, string][] = [
      [{ calendar: seat, name: '  ' }, 'name'],
      [{ calendar: seat, name: 'A', half_hours: 0 }, 'half_hours'],
      [{ calendar: seat, name: 'A', half_hours: 7 }, 'half_hours'],
      [{ calendar: seat, name: 'A', method: 'bitcoin' }, 'method'],
      [{ calendar: seat, name: 'A', email: 'not-an-address' }, 'email'],
      [{ calendar: 999_999, name: 'A' }, 'calendar'],
      [{ calendar: seat, name: 'A', idempotency_key: 'x' }, 'idempotency_key'],
    ];
    for (const [payload, field] of cases) {
      const res = await walkIn(payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json())).toEqual([field]);
    }
    expect(await liveOn(seat)).toHaveLength(0);
  });

  it('leaves a returning customer’s older debt alone: this payment pays this visit', async () => {
    const owes = await createUser(t, { email: 'owes@example.com' });
    const seat = venue.seats[3].id;
    // An unpaid booking of yesterday at the desk.
    const yesterday = slotAround(new Date(Date.now() - 86_400_000), zone);
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/planner/book',
      headers: bearer(desk.token),
      payload: { user: owes.id, slots: [{ calendar: seat, slot: yesterday }], payment: 'desk' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const old = booked.json().entries[0].id as number;
    const res = await walkIn({ calendar: seat, name: 'Owen', email: 'owes@example.com' }, planner);
    expect(res.statusCode, res.body).toBe(201);
    const live = await t.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.userId, owes.id), isNull(reservations.cancelledAt)));
    expect(live.find((r) => r.id === old)?.paid).toBe(false);
    expect(live.filter((r) => r.id !== old).every((r) => r.paid)).toBe(true);
    const [charge] = await t.db
      .select()
      .from(charges)
      .where(inArray(charges.userId, [owes.id]));
    expect(charge.takenById).toBe(planner.id);
  });
});
