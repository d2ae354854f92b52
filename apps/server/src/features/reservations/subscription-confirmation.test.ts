import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { reservations } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { sentMails } from '../../test/sent-mail';
import { createVenue, futureDate } from '../../test/booking-factories';

/**
 * Issue 30: "Book It!" on club credit (POST /reservations with a subscription) booked and paid
 * but sent no mail; only a checkout's finish owed one. Every paid booking sends the same
 * confirmation, with its calendar, whatever paid it.
 */

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 2500 });
});
afterAll(() => t.close());

const post = (url: string, user: CreatedUser, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

async function member() {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const res = await post('/api/users/me/charges/credits_enroll', user, { credits_amount: 1000 });
  expect(res.statusCode, res.body).toBe(200);
  return { user, subscriptionId: res.json().subscription.id as number };
}

const credits = async (user: CreatedUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(user.token) })).json()
    .credits_balance as number;

function calendarOf(mail: ParsedMail): string {
  const ics = mail.attachments.find((a) => a.filename === 'booking.ics');
  expect(ics?.contentType).toBe('text/calendar');
  return ics!.content.toString('utf8');
}

describe('a booking paid with a club subscription', () => {
  it('sends the confirmation a checkout sends, with its calendar', async () => {
    const { user, subscriptionId } = await member();
    const day = futureDate(9);
    const booked = await post('/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot: `${day}T19:00`,
      subscription: subscriptionId,
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json()).toMatchObject({ paid: true, subscription: subscriptionId });

    // The same member pays another seat through the checkout, with credits only.
    const items = [{ calendar: venue.seats[1].id, slot: `${day}T20:00` }];
    const quote = await post('/api/reservations/checkouts/quote', user, { reservations: items });
    expect(quote.json().total_cents).toBe(0);
    const paid = await post(
      `/api/reservations/checkouts/${quote.json().checkout_id}/process`,
      user,
      {},
    );
    expect(paid.statusCode, paid.body).toBe(200);

    const confirmations = (await sentMails(t, user.email)).filter((m) =>
      /is confirmed$/.test(m.subject ?? ''),
    );
    expect(confirmations.map((m) => m.subject)).toEqual([
      `Your booking at ${venue.location.name} is confirmed`,
      `Your booking at ${venue.location.name} is confirmed`,
    ]);
    const [bySubscription, byCheckout] = confirmations;
    expect(bySubscription.text).toContain(`Reservation #${booked.json().id}`);
    expect(bySubscription.text).toContain('7:00 PM');
    expect(byCheckout.text).toContain('8:00 PM');
    for (const mail of confirmations) {
      const ics = calendarOf(mail);
      expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(ics).toContain('BEGIN:VALARM');
    }
    expect(calendarOf(bySubscription)).toContain(`DTSTART;TZID=`);
    expect(calendarOf(bySubscription)).toContain(`${day.replaceAll('-', '')}T190000`);
  });

  it('books nothing and spends nothing when the confirmation cannot be stored', async () => {
    const { user, subscriptionId } = await member();
    const slot = `${futureDate(10)}T19:00`;
    const mailer = t.deps.mailer;
    const send = mailer.send;
    // Cut at the worst moment: the seat inserted and the credit spent, the mail not stored.
    mailer.send = () => Promise.reject(new Error('outbox down'));
    try {
      const res = await post('/api/reservations', user, {
        calendar: venue.seats[0].id,
        slot,
        subscription: subscriptionId,
      });
      expect(res.statusCode).toBe(500);
    } finally {
      mailer.send = send;
    }
    expect(await credits(user)).toBe(1000);
    expect(
      await t.db
        .select()
        .from(reservations)
        .where(and(eq(reservations.userId, user.id), isNull(reservations.cancelledAt))),
    ).toEqual([]);
    // Tried again, it books, spends one session and mails once.
    const again = await post('/api/reservations', user, {
      calendar: venue.seats[0].id,
      slot,
      subscription: subscriptionId,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(await credits(user)).toBe(750);
    const mails = (await sentMails(t, user.email)).filter((m) =>
      /is confirmed$/.test(m.subject ?? ''),
    );
    expect(mails).toHaveLength(1);
  });
});
