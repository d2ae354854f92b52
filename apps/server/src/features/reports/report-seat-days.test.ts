import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Report } from '@paddock/contract/reports';
import { reservations } from '../../db/schema/booking';
import { reportSeatDays } from '../../db/schema/reports';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createSeat, createVenue, futureDate } from '../../test/booking-factories';

// report_seat_days (decision 0044) is kept by triggers on reservations: whatever a write path
// does, it must hold what the reports' own query over the bookings would count.
let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let cheap: Awaited<ReturnType<typeof createSeat>>;
let owner: CreatedUser;
let alice: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(10, zone);
const nextDay = futureDate(11, zone);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 4000, bookingFeeCents: 150 });
  cheap = await createSeat(t, {
    locationId: venue.location.id,
    typeId: venue.type.id,
    name: 'Budget Rig',
    costCents: 2500,
  });
  owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
  alice = await createUser(t, { firstName: 'Alice', lastName: 'Racer' });
  await saveTestCard(t, alice);
});
afterAll(() => t.close());

const send = (method: 'GET' | 'POST', url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function book(items: { calendar: number; slot: string }[]) {
  const q = await send('POST', '/api/reservations/checkouts/quote', alice, { reservations: items });
  expect(q.statusCode, q.body).toBe(200);
  const p = await send(
    'POST',
    `/api/reservations/checkouts/${q.json().checkout_id}/process`,
    alice,
  );
  expect(p.statusCode, p.body).toBe(200);
  return (p.json().reservations as { id: number }[]).map((r) => r.id);
}

const key = (seat: number, date: string) => `${seat} ${date}`;

/** The seat-days as counted from the bookings themselves, and as kept: days with nothing left out. */
async function keptAndCounted() {
  const seats = [...venue.seats.map((s) => s.id), cheap.id];
  const counted = new Map<string, { hours: number[]; paidCents: number; feeCents: number }>();
  const rows = await t.db
    .select()
    .from(reservations)
    .where(inArray(reservations.calendarId, seats));
  for (const r of rows) {
    if (r.cancelledAt || r.isBlackout) continue;
    const k = key(r.calendarId, r.slot.slice(0, 10));
    const c = counted.get(k) ?? { hours: new Array<number>(24).fill(0), paidCents: 0, feeCents: 0 };
    c.hours[Number(r.slot.slice(11, 13))] += 1;
    if (r.paid) {
      c.paidCents += r.amountCents;
      c.feeCents += r.bookingFeeCents;
    }
    counted.set(k, c);
  }
  const kept = new Map(
    (await t.db.select().from(reportSeatDays).where(inArray(reportSeatDays.calendarId, seats)))
      .filter((d) => d.paidCents !== 0 || d.feeCents !== 0 || d.hours.some((n) => n !== 0))
      .map((d) => [
        key(d.calendarId, d.day),
        { hours: d.hours, paidCents: d.paidCents, feeCents: d.feeCents },
      ]),
  );
  return { kept, counted };
}

async function expectInStep() {
  const { kept, counted } = await keptAndCounted();
  expect(kept).toEqual(counted);
  return kept;
}

describe('report_seat_days', () => {
  it('follows booking, paying, moving, cancelling, blackouts and deletes', async () => {
    const [first, second] = await book([
      { calendar: venue.seats[0].id, slot: `${day}T18:00` },
      { calendar: venue.seats[0].id, slot: `${day}T18:30` },
    ]);
    const afterBooking = await expectInStep();
    expect(afterBooking.get(key(venue.seats[0].id, day))).toMatchObject({ feeCents: 300 });

    // Moved to a cheaper seat on the next day: the difference goes back, the day and seat change.
    const moved = await send('POST', `/api/reservations/${first}/move`, alice, {
      calendar: cheap.id,
      slot: `${nextDay}T20:00`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const afterMove = await expectInStep();
    expect(afterMove.get(key(cheap.id, nextDay))?.hours[20]).toBe(1);
    expect(afterMove.get(key(venue.seats[0].id, day))?.hours[18]).toBe(1);

    // Cancelled with a refund: it no longer counts anywhere.
    const cancelled = await send('POST', `/api/reservations/${second}/cancel`, alice, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const afterCancel = await expectInStep();
    expect(afterCancel.has(key(venue.seats[0].id, day))).toBe(false);

    // Written straight to the table: an unpaid booking, then paid; a blackout; a delete.
    const [desk] = await t.db
      .insert(reservations)
      .values({
        calendarId: venue.seats[1].id,
        slot: `${day}T09:00`,
        time: DateTime.fromISO(`${day}T09:00`, { zone }).toJSDate(),
        userId: alice.id,
        amountCents: 4000,
      })
      .returning();
    await t.db.insert(reservations).values({
      calendarId: venue.seats[1].id,
      slot: `${day}T10:00`,
      time: DateTime.fromISO(`${day}T10:00`, { zone }).toJSDate(),
      isBlackout: true,
    });
    await expectInStep();
    await t.db.update(reservations).set({ paid: true }).where(eq(reservations.id, desk.id));
    expect((await expectInStep()).get(key(venue.seats[1].id, day))).toMatchObject({
      paidCents: 4000,
    });
    await t.db.delete(reservations).where(eq(reservations.id, desk.id));
    expect((await expectInStep()).has(key(venue.seats[1].id, day))).toBe(false);

    // And the report reads it: the moved booking alone, on its new seat and day.
    const res = await send(
      'GET',
      `/api/reports?location=${venue.location.id}&from=${day}&to=${nextDay}`,
      owner,
    );
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as Report;
    const cells = (seat: number) =>
      report.utilisation.seats.find((s) => s.id === seat)!.booked.reduce((a, b) => a + b);
    expect(cells(cheap.id)).toBe(1);
    expect(cells(venue.seats[0].id)).toBe(0);
    const movedRow = report.revenue_by_day.find((r) => r.date === nextDay)!;
    expect(movedRow.bookings_cents + movedRow.fees_cents).toBe(
      afterMove.get(key(cheap.id, nextDay))!.paidCents,
    );
    expect(report.revenue_by_day.find((r) => r.date === day)!.total_cents).toBe(0);
  });
});
