import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import {
  createCalendarType,
  createSeat,
  createVenue,
  futureDate,
} from '../../test/booking-factories';
import { reservations } from '../../db/schema/booking';
import { refunds } from '../../db/schema/refunds';
import { outboxMessages } from '../../db/schema/content';
import { charges } from '../../db/schema/payments';
import { auditEvents } from '../../db/schema/audit';

let t: TestApp;
let staff: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, who: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

const liveAt = (calendarId: number) =>
  t.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.calendarId, calendarId), isNull(reservations.cancelledAt)));

/**
 * Sim 1 breaks for 18:00–20:00 with three bookings left: Ann's 18:00 and 18:30 (unpaid), and
 * Ben's paid 19:00, whose time is taken on both other Pro seats. A seat of another type is free.
 */
async function brokenRigDay(day: string) {
  const venue = await createVenue(t, { seats: 3 });
  const other = await createCalendarType(t, { name: 'VR Pod' });
  await createSeat(t, {
    locationId: venue.location.id,
    typeId: other.id,
    name: 'VR 1',
    costCents: 4500,
    sortOrder: 9,
  });
  const [sim1, sim2, sim3] = venue.seats.map((s) => s.id);
  const ann = await createUser(t, { firstName: 'Ann', lastName: 'Apex' });
  const ben = await createUser(t, { firstName: 'Ben', lastName: 'Brake' });
  await saveTestCard(t, ben);
  const book = async (user: number, calendar: number, time: string, payment = 'desk') => {
    const res = await call('POST', '/api/planner/book', staff, {
      user,
      slots: [{ calendar, slot: `${day}T${time}` }],
      payment,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().entries[0].id as number;
  };
  const ann1 = await book(ann.id, sim1, '18:00');
  const ann2 = await book(ann.id, sim1, '18:30');
  const benId = await book(ben.id, sim1, '19:00', 'card');
  const third = await createUser(t);
  await book(third.id, sim2, '19:00');
  await book(third.id, sim3, '19:00');
  return { venue, sim1, sim2, sim3, ann, ben, ann1, ann2, benId };
}

describe('a seat out of service', () => {
  it('previews, then moves, cancels with a refund, blacks out and tells the customers', async () => {
    const day = futureDate(5);
    const d = await brokenRigDay(day);
    const range = { calendar: d.sim1, from: `${day}T18:00`, to: `${day}T20:00` };
    const preview = await call(
      'GET',
      `/api/planner/out_of_service?calendar=${d.sim1}&from=${range.from}&to=${range.to}`,
      staff,
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      calendar_name: 'Sim 1',
      times: 5,
      bookings: [
        { reservation: d.ann1, user_display_name: 'Ann Apex', to_calendar_name: 'Sim 2' },
        { reservation: d.ann2, to_calendar_name: 'Sim 2' },
        { reservation: d.benId, paid: true, to_calendar: null },
      ],
    });
    // A preview changes nothing.
    expect(await liveAt(d.sim1)).toHaveLength(3);

    const res = await call('POST', '/api/planner/out_of_service', staff, {
      ...range,
      notes: 'Wheel base died',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().detail).toBe('Sim 1 is out of service: 2 moved, 1 cancelled.');

    const onSim1 = await liveAt(d.sim1);
    expect(onSim1).toHaveLength(5);
    expect(onSim1.every((r) => r.isBlackout && r.notes === 'Wheel base died')).toBe(true);
    const onSim2 = (await liveAt(d.sim2)).filter((r) => r.userId === d.ann.id);
    expect(onSim2.map((r) => r.id).sort()).toEqual([d.ann1, d.ann2].sort());
    // The move keeps the time and what is owed.
    expect(onSim2.every((r) => r.slot.startsWith(`${day}T18`) && r.amountCents > 0)).toBe(true);

    const [ben] = await t.db.select().from(reservations).where(eq(reservations.id, d.benId));
    expect(ben.cancelledAt).not.toBeNull();
    const [refund] = await t.db.select().from(refunds).where(eq(refunds.reservationId, d.benId));
    const [paid] = await t.db.select().from(charges).where(eq(charges.userId, d.ben.id));
    expect(refund.cardCents).toBe(paid.amountCents);

    for (const who of [d.ann, d.ben]) {
      const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, who.email));
      expect(mail.some((m) => m.subject.includes('Your reservation'))).toBe(true);
    }
    const annMail = (
      await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, d.ann.email))
    ).find((m) => m.subject.includes('moved'));
    expect(annMail?.text).toContain('moved to Sim 2, same time and price');

    // The blackout is real: nobody can book the broken seat in the range.
    const customer = await createUser(t);
    const refused = await call('POST', '/api/reservations', customer, {
      calendar: d.sim1,
      slot: `${day}T19:30`,
    });
    expect(refused.statusCode).toBe(400);

    const [trail] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'planner.out_of_service'));
    expect(trail.after).toMatchObject({ seat: 'Sim 1', cancelled: [d.benId], blackouts: 5 });
  });

  it('names the bad field and changes nothing', async () => {
    const day = futureDate(6);
    const d = await brokenRigDay(day);
    const cases: [object, string][] = [
      [{ calendar: d.sim1, from: `${day}T20:00`, to: `${day}T18:00` }, 'to'],
      [{ calendar: d.sim1, from: `${day}T18:00`, to: `${futureDate(7)}T18:00` }, 'to'],
      [
        { calendar: d.sim1, from: `${futureDate(-2)}T18:00`, to: `${futureDate(-2)}T19:00` },
        'from',
      ],
      [{ calendar: 2 ** 31 - 1, from: `${day}T18:00`, to: `${day}T19:00` }, 'calendar'],
      [{ calendar: d.sim1, from: `${day}T18:15`, to: `${day}T19:00` }, 'from'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/api/planner/out_of_service', staff, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toHaveProperty(field);
    }
    expect(await liveAt(d.sim1)).toHaveLength(3);
  });

  it('is for planner staff only', async () => {
    const day = futureDate(8);
    const d = await brokenRigDay(day);
    const customer = await createUser(t);
    const res = await call('POST', '/api/planner/out_of_service', customer, {
      calendar: d.sim1,
      from: `${day}T18:00`,
      to: `${day}T19:00`,
    });
    expect(res.statusCode).toBe(403);
    expect(await liveAt(d.sim1)).toHaveLength(3);
  });
});

describe('a connection ended in the middle of taking a seat out of service', () => {
  it('leaves nothing half-moved, and the action then goes through whole', async () => {
    const day = futureDate(9);
    const d = await brokenRigDay(day);
    const admin = new pg.Client({ connectionString: t.deps.database.url });
    await admin.connect();
    try {
      // The second booking moved ends its own connection: the first is written by then.
      await admin.query(`
        create or replace function test_end_mid_move() returns trigger language plpgsql as $$
        begin
          if old.calendar_id <> new.calendar_id and new.id = ${d.ann2} then
            perform pg_terminate_backend(pg_backend_pid());
          end if;
          return new;
        end $$;
        create trigger test_end_mid_move after update on reservations
          for each row execute function test_end_mid_move();`);
      const body = { calendar: d.sim1, from: `${day}T18:00`, to: `${day}T20:00` };
      const broken = await call('POST', '/api/planner/out_of_service', staff, body);
      expect(broken.statusCode).toBeGreaterThanOrEqual(500);
      const rows = await liveAt(d.sim1);
      expect(rows.map((r) => r.id).sort()).toEqual([d.ann1, d.ann2, d.benId].sort());
      expect(rows.some((r) => r.isBlackout)).toBe(false);
      expect(await t.db.select().from(refunds).where(eq(refunds.reservationId, d.benId))).toEqual(
        [],
      );

      await admin.query(`drop trigger test_end_mid_move on reservations`);
      let again = await call('POST', '/api/planner/out_of_service', staff, body);
      // The pool may hand out one more ended connection before it notices.
      if (again.statusCode >= 500)
        again = await call('POST', '/api/planner/out_of_service', staff, body);
      expect(again.statusCode, again.body).toBe(200);
      expect((await liveAt(d.sim1)).every((r) => r.isBlackout)).toBe(true);
    } finally {
      await admin.query(`drop trigger if exists test_end_mid_move on reservations`);
      await admin.query(`drop function if exists test_end_mid_move()`);
      await admin.end();
    }
  });
});
