import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { bookSeat, type SeatBooking } from './book-seat';

// Group commit (decision 0060): bookings asked for at the same moment share one statement, and
// each still gets its own outcome, with every rule a booking alone enforces.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const day = futureDate(5, 'UTC');

const pool = () => (t.db as unknown as { $client: pg.Pool }).$client;
const query = pg.Client.prototype.query;
let statements = 0;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 4, timezone: 'UTC' });
  staff = await createUser(t, { isStaff: true, permissions: ['reservations.change_reservation'] });
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if ((args[0] as { name?: string })?.name === 'paddock_book_seats') statements++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterEach(() => {
  statements = 0;
});
afterAll(async () => {
  pg.Client.prototype.query = query;
  await t.close();
});

const booking = (
  seat: number,
  hhmm: string,
  userId: number | null,
  extra: Partial<SeatBooking> = {},
) => ({
  calendarId: venue.seats[seat].id,
  slot: `${day}T${hhmm}`,
  time: new Date(`${day}T${hhmm}:00Z`),
  userId,
  paid: false,
  amountCents: { member: 4000, other: 4500 },
  isBlackout: false,
  notes: '',
  createdById: staff.id,
  unpaidLimit: null,
  ...extra,
});

async function liveCount(seat: number, hhmm: string) {
  const { rows } = await pool().query<{ n: number }>(
    'select count(*)::int as n from reservations where calendar_id = $1 and slot = $2 and cancelled_at is null',
    [venue.seats[seat].id, `${day}T${hhmm}`],
  );
  return rows[0].n;
}

describe('bookings at the same moment', () => {
  it('share statements, one winner per seat-slot, each with its own outcome', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const asked: SeatBooking[] = [
      booking(0, '09:00', a.id),
      booking(1, '09:00', a.id),
      booking(2, '09:00', b.id),
      booking(3, '09:00', b.id),
      booking(0, '10:00', a.id),
      booking(0, '10:00', b.id), // the same seat-slot in the same statement: taken
      booking(1, '10:00', 999_999), // no such user
      { ...booking(2, '10:00', a.id), calendarId: 999_999 }, // no such seat
      booking(3, '10:00', null, {
        isBlackout: true,
        notes: 'maintenance',
        amountCents: { member: 0, other: 0 },
      }),
      booking(0, '11:00', b.id),
      booking(1, '11:00', b.id),
      booking(2, '11:00', a.id),
    ];
    const outcomes = await Promise.all(asked.map((x) => bookSeat(t.db, x)));
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(asked.length);
    expect(outcomes.map((o) => (o.booked ? 'booked' : o.reason))).toEqual([
      'booked',
      'booked',
      'booked',
      'booked',
      'booked',
      'taken',
      'no-user',
      'no-seat',
      'booked',
      'booked',
      'booked',
      'booked',
    ]);
    const first = outcomes[0];
    expect(first.booked && first.user?.email).toBe(a.email);
    expect(first.booked && first.creator?.email).toBe(staff.email);
    expect(first.booked && first.amountCents).toBe(4500);
    expect(await liveCount(0, '10:00')).toBe(1);
    // One stored change per booking made, nothing for the refused ones.
    const ids = outcomes.flatMap((o) => (o.booked ? [o.id] : []));
    const { rows } = await pool().query<{ n: number }>(
      `select count(*)::int as n from change_events where topic = 'reservations'
       and seq > (select coalesce(max(seq), 0) from change_events) - $1`,
      [ids.length],
    );
    expect(rows[0].n).toBe(ids.length);
    // The report rows (decision 0044) counted every live booking once.
    const { rows: report } = await pool().query<{ n: number }>(
      `select sum((select sum(h) from unnest(hours) h))::int as n from report_seat_days
       where calendar_id = any($1::int[]) and day = $2::date`,
      [venue.seats.map((s) => s.id), day],
    );
    expect(report[0].n).toBe(ids.length - 1); // the blackout does not count
  });

  it('never puts two bookings of one customer under the unpaid rule in one statement', async () => {
    const c = await createUser(t);
    const limit = { limit: 1, now: new Date() };
    // Every lane busy first, so the two wait together where a shared statement would form.
    const fillers = [0, 1, 2, 3].map((s) =>
      bookSeat(t.db, booking(s, '13:00', null, { isBlackout: true })),
    );
    const limited = [
      bookSeat(t.db, booking(0, '14:00', c.id, { unpaidLimit: limit })),
      bookSeat(t.db, booking(1, '14:00', c.id, { unpaidLimit: limit })),
    ];
    const outcomes = await Promise.all(limited);
    await Promise.all(fillers);
    expect(outcomes.map((o) => (o.booked ? 'booked' : o.reason)).sort()).toEqual([
      'booked',
      'unpaid-limit',
    ]);
  });

  it('makes the others when one booking of a shared statement fails', async () => {
    const c = await createUser(t);
    // The seat's lane busy first, so the next four of that seat share a statement.
    const filler = bookSeat(t.db, booking(0, '15:00', c.id));
    // A slot key the report trigger cannot read as a date fails the statement it is in.
    const bad = bookSeat(t.db, { ...booking(0, '16:00', c.id), slot: '2030-02-30T16:00' });
    const times = ['16:00', '16:30', '17:00'];
    const good = times.map((hhmm) => bookSeat(t.db, booking(0, hhmm, c.id)));
    await expect(bad).rejects.toThrow();
    for (const o of await Promise.all([filler, ...good])) expect(o.booked).toBe(true);
    for (const hhmm of times) expect(await liveCount(0, hhmm)).toBe(1);
    expect(statements).toBeGreaterThanOrEqual(6); // the filler, the shared one, four alone
  });
});
