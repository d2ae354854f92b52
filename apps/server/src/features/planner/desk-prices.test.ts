import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createSeat, createVenue, futureDate } from '../../test/booking-factories';
import { reservations } from '../../db/schema/booking';
import { charges } from '../../db/schema/payments';
import { moveCharges } from '../../db/schema/refunds';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let dearer: { id: number };
let staff: CreatedUser;
const day = futureDate(4);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 4500 });
  dearer = await createSeat(t, {
    locationId: venue.location.id,
    typeId: venue.type.id,
    name: 'Sim Pro',
    costCents: 7000,
    sortOrder: 5,
  });
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

describe('the price at the desk', () => {
  it('quotes seat, time and total before booking, and the booking charges exactly that', async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const slots = [
      { calendar: venue.seats[0].id, slot: `${day}T18:00` },
      { calendar: dearer.id, slot: `${day}T18:30` },
    ];
    const quote = await call('POST', '/api/planner/book/quote', staff, {
      user: customer.id,
      slots,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const price = quote.json();
    expect(price.lines).toEqual([
      expect.objectContaining({ calendar_name: 'Sim 1', slot: `${day}T18:00`, cost_cents: 4500 }),
      expect.objectContaining({ calendar_name: 'Sim Pro', slot: `${day}T18:30`, cost_cents: 7000 }),
    ]);
    expect(price.total_cents).toBeGreaterThanOrEqual(11500);
    // A quote books nothing.
    expect(
      await t.db.select().from(reservations).where(eq(reservations.userId, customer.id)),
    ).toEqual([]);

    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots,
      payment: 'card',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const [charge] = await t.db.select().from(charges).where(eq(charges.userId, customer.id));
    expect(charge.amountCents).toBe(price.total_cents);
  });

  it('names a bad field of the quote', async () => {
    const res = await call('POST', '/api/planner/book/quote', staff, {
      user: 2 ** 31 - 1,
      slots: [{ calendar: venue.seats[0].id, slot: `${day}T18:00` }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('user');
  });
});

describe('a desk booking of several seat types', () => {
  it('stores each booking at its own price, so cancelling the cheap one refunds its own money', async () => {
    const cheap = await createSeat(t, {
      locationId: venue.location.id,
      typeId: venue.type.id,
      name: 'Sim Lite',
      costCents: 2500,
    });
    const dear = await createSeat(t, {
      locationId: venue.location.id,
      typeId: venue.type.id,
      name: 'Sim Plus',
      costCents: 3500,
    });
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [
        { calendar: cheap.id, slot: `${day}T15:00` },
        { calendar: dear.id, slot: `${day}T15:00` },
      ],
      payment: 'card',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const rows = await t.db.select().from(reservations).where(eq(reservations.userId, customer.id));
    const stored = Object.fromEntries(rows.map((r) => [r.calendarId, r.amountCents]));
    expect(stored).toEqual({ [cheap.id]: 2500, [dear.id]: 3500 });
    const [charge] = await t.db.select().from(charges).where(eq(charges.userId, customer.id));
    expect(charge.amountCents).toBe(6000);

    const cheapId = rows.find((r) => r.calendarId === cheap.id)!.id;
    const cancelled = await call('POST', `/api/reservations/${cheapId}/cancel`, customer, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().refund.refund.total_cents).toBe(2500);
  });
});

describe('a staff move to a dearer seat', () => {
  it("charges the difference as the customer's own move does", async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [{ calendar: venue.seats[1].id, slot: `${day}T20:00` }],
      payment: 'card',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().entries[0].id as number;
    // What the customer's own move would charge, from its quote.
    const quote = await call(
      'GET',
      `/api/reservations/${id}/move_quote?calendar=${dearer.id}&slot=${day}T20:00`,
      customer,
    );
    expect(quote.statusCode, quote.body).toBe(200);
    const expected = quote.json().charge_cents as number;
    expect(expected).toBeGreaterThan(0);

    const moved = await call('POST', '/api/planner/move', staff, {
      reservation: id,
      calendar: dearer.id,
      slot: `${day}T20:00`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().detail).toMatch(/^Moved to Sim Pro\. The difference, .* was charged/);
    const [part] = await t.db.select().from(moveCharges).where(eq(moveCharges.reservationId, id));
    expect(part.cardCents).toBe(expected);
    const [last] = await t.db
      .select()
      .from(charges)
      .where(eq(charges.userId, customer.id))
      .orderBy(desc(charges.id))
      .limit(1);
    expect(last.amountCents).toBe(expected);
  });

  it('an unpaid booking owes the dearer price after a staff move', async () => {
    const customer = await createUser(t);
    const booked = await call('POST', '/api/planner/book', staff, {
      user: customer.id,
      slots: [{ calendar: venue.seats[1].id, slot: `${day}T21:00` }],
      payment: 'desk',
    });
    const id = booked.json().entries[0].id as number;
    const [before] = await t.db.select().from(reservations).where(eq(reservations.id, id));
    const moved = await call('POST', '/api/planner/move', staff, {
      reservation: id,
      calendar: dearer.id,
      slot: `${day}T21:00`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [after] = await t.db.select().from(reservations).where(eq(reservations.id, id));
    expect(after.calendarId).toBe(dearer.id);
    expect(after.amountCents).toBeGreaterThan(before.amountCents);
  });
});
