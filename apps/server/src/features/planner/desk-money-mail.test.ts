import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { auditEvents } from '../../db/schema/audit';
import { createTestApp, type TestApp } from '../../test/test-app';
import { sentMail, sentMails } from '../../test/sent-mail';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

// Every change to a customer's booking or money sends one clear mail, read here from the outbox
// (issue 41, decision 0116): the desk's sale (card or pay at the desk), a staff move with no
// money, a late cancel that keeps the payment, a declined card, a failed 3-D Secure check; and
// the receipts say what paid.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let desk: CreatedUser;
const zone = 'America/Los_Angeles';
let dayAhead = 3;
// 4500 seat + 150 fee, 8.875 % tax → 5063 a booking.

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    seats: 3,
    costCents: 4500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
  });
  desk = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation', 'vouchers.add_voucher'],
  });
});
afterAll(() => t.close());

const send = (method: 'GET' | 'POST', url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
const freeSlot = (hhmm = '18:00') => `${futureDate(dayAhead++, zone)}T${hhmm}`;
const lateSlot = (hoursAhead = 3) =>
  DateTime.now()
    .setZone(zone)
    .plus({ hours: hoursAhead })
    .startOf('hour')
    .toFormat("yyyy-MM-dd'T'HH:mm");
/** A mail's text with its word wrap undone. */
const flat = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ');
const auditOf = (userId: number, action: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectUserId, userId), eq(auditEvents.action, action)));

async function checkout(user: CreatedUser, slot: string, extra: object = {}) {
  const q = await send('POST', '/api/reservations/checkouts/quote', user, {
    reservations: [{ calendar: venue.seats[0].id, slot }],
    ...extra,
  });
  expect(q.statusCode, q.body).toBe(200);
  return send('POST', `/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
}

describe('the desk sale', () => {
  it('charged to the saved card: one receipt with the seat, fee and tax lines', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const res = await send('POST', '/api/planner/book', desk, {
      user: user.id,
      slots: [{ calendar: venue.seats[0].id, slot: freeSlot() }],
      payment: 'card',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mails = await sentMails(t, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Your booking at .* is confirmed$/);
    const text = mails[0].text!;
    expect(text).toMatch(/Seats: *\$45\.00/);
    expect(text).toMatch(/Booking fees: *\$1\.50/);
    expect(text).toMatch(/Tax: *\$4\.13/);
    expect(text).toMatch(/Total charged: *\$50\.63/);
    expect(await auditOf(user.id, 'planner.book')).toHaveLength(1);
  });

  it('left to pay at the desk: one mail saying what is owed and to pay at the desk', async () => {
    const user = await createUser(t);
    const res = await send('POST', '/api/planner/book', desk, {
      user: user.id,
      slots: [{ calendar: venue.seats[0].id, slot: freeSlot() }],
      payment: 'desk',
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await sentMail(t, user.email, /to pay at the desk/);
    expect(mail.subject).toMatch(/: \$50\.63 to pay at the desk$/);
    expect(flat(mail.text)).toContain('$50.63 is owed. Please pay at the desk when you arrive.');
    expect(mail.text).toMatch(/To pay at the desk: *\$50\.63/);
    expect(mail.text).not.toContain('Total charged');
    expect(await sentMails(t, user.email)).toHaveLength(1);
  });
});

describe('a staff move with no money', () => {
  it('tells the customer the new time (same price), once', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const from = freeSlot('18:00');
    const booked = await checkout(user, from);
    expect(booked.statusCode, booked.body).toBe(200);
    const id = booked.json().reservations[0].id as number;
    const before = (await sentMails(t, user.email)).length;
    const to = from.replace('T18:00', 'T20:00');
    const moved = await send('POST', '/api/planner/move', desk, {
      reservation: id,
      calendar: venue.seats[1].id,
      slot: to,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await sentMails(t, user.email);
    expect(after).toHaveLength(before + 1);
    const mail = after.at(-1)!;
    expect(mail.subject).toMatch(/^Your reservation has moved: Sim 2, .*8:00 PM/);
    expect(mail.text).toMatch(/Now: *Sim 2, .*8:00 PM/);
    expect(mail.text).toMatch(/Was: *Sim 1, .*6:00 PM/);
    expect(flat(mail.text)).toContain(
      'The price is the same, so nothing is charged or given back.',
    );
    expect(await auditOf(user.id, 'planner.move')).toHaveLength(1);
  });
});

describe('cancellations that give nothing back', () => {
  it('a late cancel that keeps the money says nothing comes back, and why', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const booked = await checkout(user, lateSlot());
    expect(booked.statusCode, booked.body).toBe(200);
    const id = booked.json().reservations[0].id as number;
    const res = await send('POST', `/api/reservations/${id}/cancel`, user, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toBeNull();
    const mail = await sentMail(t, user.email, /^Cancelled: /);
    expect(flat(mail.text)).toContain(
      'Nothing comes back: it was cancelled less than 24 hours before it starts, and under the cancellation policy the payment ($50.63) is kept then.',
    );
    expect(mail.text).toMatch(/Comes back: *\$0\.00/);
    expect(await auditOf(user.id, 'reservation.cancel')).toHaveLength(1);
  });
});

describe('payments that did not go through', () => {
  it('a declined card: the seats kept unpaid, what is owed, nothing charged', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const res = await checkout(user, freeSlot());
    expect(res.statusCode).toBe(402);
    const mail = await sentMail(t, user.email, /^Payment declined/);
    expect(flat(mail.text)).toContain('Your card was declined, so nothing was charged.');
    expect(flat(mail.text)).toContain('Your seats are kept for you, unpaid: $50.63 is owed.');
    expect(mail.text).toMatch(/Sim 1: .*\(kept, unpaid\)/);
    expect(await sentMails(t, user.email)).toHaveLength(1);
  });

  it('a failed 3-D Secure check: the seats released, nothing charged, in the answer and a mail', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000002760003184');
    const res = await checkout(user, freeSlot());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('awaiting_authentication');
    await answerChallenge(t, res.json().challenge_url as string, 'fail');
    const id = res.json().checkout_id as number;
    const again = await send('POST', `/api/reservations/checkouts/${id}/process`, user);
    expect(again.statusCode).toBe(402);
    expect(again.json().detail).toMatch(/Nothing was charged, and the seats were not kept\.$/);
    const mail = await sentMail(t, user.email, /^Payment not completed: nothing was charged$/);
    expect(flat(mail.text)).toContain('so nothing was charged');
    expect(flat(mail.text)).toContain('The seats were not kept: the booking is cancelled');
    expect(mail.text).toMatch(/Sim 1: .*\(released\)/);
  });
});

describe('receipts say what paid', () => {
  it('a voucher booking: the voucher line, not "$0.00" alone', async () => {
    const user = await createUser(t);
    const code = (await send('POST', '/api/vouchers', desk, { amount_cents: 10_000 })).json()
      .code as string;
    const res = await checkout(user, freeSlot(), { voucher: code });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await sentMail(t, user.email, /is confirmed$/);
    expect(mail.text).toMatch(new RegExp(`Voucher ${code}: *−\\$46\\.50`));
    expect(mail.text).toMatch(/Total charged: *\$0\.00/);
  });

  it('the refund mail reads in order: what comes back follows "What comes back:"', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const booked = await checkout(user, freeSlot());
    const id = booked.json().reservations[0].id as number;
    expect((await send('POST', `/api/reservations/${id}/cancel`, user, {})).statusCode).toBe(200);
    const mail = await sentMail(t, user.email, /^Refund receipt/);
    expect(flat(mail.text)).toMatch(/What comes back: \* \$50\.63 back to your Visa ending 4242/);
  });
});

describe('Delete Reservations with a refund says how much and how, before and after', () => {
  it('quotes the desk refund, then the toast gives the same figure', async () => {
    const manager = await createUser(t, {
      isStaff: true,
      permissions: ['reservations.change_reservation', 'user.change_user'],
    });
    const user = await createUser(t);
    const booked = await send('POST', '/api/planner/book', desk, {
      user: user.id,
      slots: [{ calendar: venue.seats[2].id, slot: freeSlot() }],
      payment: 'desk',
    });
    const id = booked.json().entries[0].id as number;
    const paid = await send('POST', `/api/users/${user.id}/desk_payments`, manager, {
      method: 'terminal',
      amount_cents: 5063,
      idempotency_key: 'delete-quote-1',
      reservations: [id],
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const quote = await send('POST', '/api/planner/delete/quote', desk, {
      reservations: [id],
      refund: 'full',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      bookings: [{ reservation: id, total_cents: 5063, currency: 'USD' }],
      summary: '$50.63 given back at the desk (card terminal).',
    });
    expect(quote.json().bookings[0].lines).toEqual([
      '$50.63 given back at the desk (card terminal)',
    ]);
    const bad = await send('POST', '/api/planner/delete/quote', desk, {
      reservations: [],
      refund: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['refund', 'reservations']);
    const res = await send('POST', '/api/planner/delete', desk, {
      reservations: [id],
      refund: 'full',
      reason: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().detail).toBe(
      'Successfully deleted. $50.63 given back at the desk (card terminal).',
    );
    const mail = await sentMail(t, user.email, /^Refund receipt/);
    expect(flat(mail.text)).toContain('$50.63 given back at the desk (card terminal)');
  });

  it('a no-show that keeps the money says so in one mail', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const booked = await checkout(user, lateSlot(2));
    const id = booked.json().reservations[0].id as number;
    const res = await send('POST', '/api/planner/attendance', desk, {
      reservations: [id],
      attendance: 'no_show',
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await sentMail(t, user.email, /^Marked as a no-show/);
    expect(flat(mail.text)).toContain(
      'Nothing comes back: under the cancellation policy, the payment ($50.63) is kept when a driver does not come.',
    );
  });
});
