import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { receiptsOwed, reservations } from '../../db/schema/booking';
import { outboxMessages } from '../../db/schema/content';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, type CreatedUser } from '../../test/factories';
import { clubMember } from '../../test/club-member';
import { sentMails } from '../../test/sent-mail';
import { createVenue, futureDate } from '../../test/booking-factories';

/**
 * Issue 30: "Book It!" on club credit (POST /reservations with a subscription) booked and paid
 * but sent no mail; only a checkout's finish owed one. Every paid booking sends the same
 * confirmation, with its calendar, whatever paid it, owed in its transaction and sent after the
 * commit by the one receipt sender (decisions 0059, 0102). The crash case:
 * subscription-confirmation-crash.test.ts.
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

const member = () => clubMember(t);

const credits = async (user: CreatedUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(user.token) })).json()
    .credits_balance as number;

const book = (user: CreatedUser, subscriptionId: number, slot: string) =>
  post('/api/reservations', user, {
    calendar: venue.seats[0].id,
    slot,
    subscription: subscriptionId,
  });

/** What this user's bookings owe: the confirmations not sent yet. */
const owedTo = (user: CreatedUser) =>
  t.db
    .select()
    .from(receiptsOwed)
    .where(sql`(${receiptsOwed.facts} ->> 'userId')::int = ${user.id}`);

const confirmationsTo = async (user: CreatedUser) =>
  (await sentMails(t, user.email)).filter((m) => /is confirmed$/.test(m.subject ?? ''));

/** The confirmations in the outbox now, without waiting for what is owed. */
const storedConfirmations = (user: CreatedUser) =>
  t.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.to, user.email), like(outboxMessages.subject, '%is confirmed')));

/** Runs `fn` with this instance's sender woken by nothing (as if nothing were sent yet). */
async function withoutSending<T>(fn: () => Promise<T>): Promise<T> {
  const wake = t.app.receipts.wake;
  t.app.receipts.wake = () => {};
  try {
    return await fn();
  } finally {
    t.app.receipts.wake = wake;
  }
}

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

  it('is owed with the booking and sent once, after the commit', async () => {
    const { user, subscriptionId } = await member();
    const booked = await withoutSending(() =>
      book(user, subscriptionId, `${futureDate(11)}T19:00`),
    );
    expect(booked.statusCode, booked.body).toBe(201);
    // Committed with the booking; nothing in the outbox until the sender takes it.
    const [row] = await owedTo(user);
    expect(row.checkoutId).toBeNull();
    expect(row.facts).toMatchObject({ reference: `Reservation #${booked.json().id}` });
    expect(await storedConfirmations(user)).toEqual([]);
    t.app.receipts.wake();
    const mails = await confirmationsTo(user);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`Reservation #${booked.json().id}`);
    expect(await owedTo(user)).toEqual([]);
    // Another pass sends nothing more.
    t.app.receipts.wake();
    expect(await confirmationsTo(user)).toHaveLength(1);
  });

  it('books despite a failing mail transport, and mails on a later attempt', async () => {
    const { user, subscriptionId } = await member();
    const mailer = t.deps.mailer;
    const sendAll = mailer.sendAll;
    mailer.sendAll = () => Promise.reject(new Error('SMTP down'));
    let booked;
    try {
      booked = await book(user, subscriptionId, `${futureDate(12)}T19:00`);
      expect(booked.statusCode, booked.body).toBe(201);
      await t.app.receipts.idle();
      const [row] = await owedTo(user);
      expect(row.attempts).toBe(1);
      expect(row.dueAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      mailer.sendAll = sendAll;
    }
    expect(await credits(user)).toBe(750);
    expect(await storedConfirmations(user)).toEqual([]);
    // The back-off over, the next attempt sends it, once.
    await t.db
      .update(receiptsOwed)
      .set({ dueAt: new Date() })
      .where(sql`(${receiptsOwed.facts} ->> 'userId')::int = ${user.id}`);
    t.app.receipts.wake();
    const mails = await confirmationsTo(user);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`Reservation #${booked.json().id}`);
  }, 30_000);

  it("owes and sends nothing when the booking's commit fails", async () => {
    const { user, subscriptionId } = await member();
    const slot = `${futureDate(10)}T19:00`;
    // Cut at the worst moment: the seat inserted, the credit spent, the confirmation owed, and
    // the commit refused (a deferred constraint trigger, checked at commit, for this user only).
    await t.db.execute(
      sql.raw(`
      create function fail_commit_of_owed() returns trigger language plpgsql as $$
      begin
        if (new.facts ->> 'userId')::int = ${user.id} then raise exception 'commit cut'; end if;
        return new;
      end $$;
      create constraint trigger fail_commit_of_owed after insert on receipts_owed
        deferrable initially deferred for each row execute function fail_commit_of_owed();`),
    );
    try {
      const res = await book(user, subscriptionId, slot);
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.execute(
        sql.raw(
          'drop trigger fail_commit_of_owed on receipts_owed; drop function fail_commit_of_owed();',
        ),
      );
    }
    expect(await credits(user)).toBe(1000);
    expect(
      await t.db
        .select()
        .from(reservations)
        .where(and(eq(reservations.userId, user.id), isNull(reservations.cancelledAt))),
    ).toEqual([]);
    expect(await owedTo(user)).toEqual([]);
    expect(await confirmationsTo(user)).toEqual([]);
    // Tried again, it books, spends one session and mails once.
    const again = await book(user, subscriptionId, slot);
    expect(again.statusCode, again.body).toBe(201);
    expect(await credits(user)).toBe(750);
    expect(await confirmationsTo(user)).toHaveLength(1);
  });
});
