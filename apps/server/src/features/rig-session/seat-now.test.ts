import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { reservations } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser } from '../../test/factories';
import { clubMember } from '../../test/club-member';
import { createVenue } from '../../test/booking-factories';
import { minutesLeft, oneSeatNow, seatNow } from './seat-now';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// A fixed evening in the venue's zone (America/Los_Angeles, UTC-8 in December).
const at = (hhmm: string) => new Date(`2030-12-06T${hhmm}:00-08:00`);
const slot = (hhmm: string) => `2030-12-06T${hhmm}`;

async function book(
  seat: number,
  hhmm: string,
  userId: number | null,
  opts: { paid?: boolean; blackout?: boolean; cancelled?: boolean } = {},
) {
  const [row] = await t.db
    .insert(reservations)
    .values({
      calendarId: seat,
      slot: slot(hhmm),
      time: at(hhmm),
      userId,
      paid: opts.paid ?? true,
      isBlackout: opts.blackout ?? false,
      cancelledAt: opts.cancelled ? new Date() : null,
    })
    .returning({ id: reservations.id });
  return row.id;
}

describe('seat now', () => {
  it('joins consecutive half-hours of one customer into one session and finds the next', async () => {
    const { location, seats } = await createVenue(t, { seats: 3 });
    const [one, two, three] = seats;
    const ada = await createUser(t, { firstName: 'Ada', lastName: 'Lovelace' });
    await t.db.update(users).set({ racerName: 'Flying Ada' }).where(eq(users.id, ada.id));
    const bob = await createUser(t, { firstName: 'Bob', lastName: 'Stone' });
    // Seat one: Ada 18:00 + 18:30 (one session, second half unpaid), Bob 19:00, Ada 20:00.
    const a1 = await book(one.id, '18:00', ada.id);
    const a2 = await book(one.id, '18:30', ada.id, { paid: false });
    const b1 = await book(one.id, '19:00', bob.id);
    await book(one.id, '20:00', ada.id);
    // A cancelled booking is nobody's.
    await book(two.id, '18:00', bob.id, { cancelled: true });
    // Seat three is out of service from 18:00 to 19:00; Bob at 19:00 after it.
    await book(three.id, '18:00', null, { blackout: true });
    await book(three.id, '18:30', null, { blackout: true });
    const b3 = await book(three.id, '19:00', bob.id);

    const now = await seatNow(t.db, { location: location.id }, at('18:10'));
    expect(now.map((s) => s.seat)).toEqual([one.id, two.id, three.id]);
    const [s1, s2, s3] = now;
    expect(s1.outOfService).toBe(false);
    expect(s1.current).toEqual({
      reservation: a1,
      reservations: [a1, a2],
      customer: ada.id,
      name: 'Flying Ada',
      starts: at('18:00'),
      ends: at('19:00'),
      paid: false,
      club: false,
    });
    expect(s1.next).toMatchObject({
      reservation: b1,
      customer: bob.id,
      name: 'Bob Stone',
      starts: at('19:00'),
      ends: at('19:30'),
      paid: true,
    });
    expect(minutesLeft(s1.current!, at('18:10'))).toBe(50);
    expect(s2).toMatchObject({ seatName: seats[1].name, current: null, next: null });
    expect(s3).toMatchObject({ outOfService: true, current: null });
    expect(s3.next?.reservation).toBe(b3);

    // At the end instant the session is over: Bob's is current, Ada's 20:00 is next.
    const later = await oneSeatNow(t.db, one.id, at('19:00'));
    expect(later?.current?.reservation).toBe(b1);
    expect(later?.next?.starts).toEqual(at('20:00'));
    const free = await oneSeatNow(t.db, three.id, at('19:40'));
    expect(free).toMatchObject({ outOfService: false, current: null, next: null });
  });

  it('never shows an e-mail as the name, and says club for a member in good standing', async () => {
    const { seats } = await createVenue(t, { seats: 1 });
    const nameless = await createUser(t, { firstName: '', lastName: '' });
    const { user: member } = await clubMember(t);
    await book(seats[0].id, '18:00', nameless.id);
    await book(seats[0].id, '18:30', member.id);
    const now = await oneSeatNow(t.db, seats[0].id, at('18:00'));
    expect(now?.current).toMatchObject({ customer: nameless.id, name: null, club: false });
    expect(now?.next).toMatchObject({ customer: member.id, club: true });
    expect(await oneSeatNow(t.db, 999_999, at('18:00'))).toBeNull();
  });
});
