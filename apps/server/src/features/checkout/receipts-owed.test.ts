import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { receiptsOwed } from '../../db/schema/booking';
import { outboxMessages } from '../../db/schema/content';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { receiptsSent, sentMails } from '../../test/sent-mail';

// Booking confirmations are owed in the statement that marks the checkout paid and sent after
// the answer by any instance (decision 0059): durable with the payment, sent once.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
const zone = 'Europe/London';
const day = futureDate(5, zone);
let hour = 8;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 2500, timezone: zone });
});
afterAll(() => t.close());

const post = (app: TestApp['app'], user: CreatedUser, url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: bearer(user.token), payload });

/** A customer with a card and a paid one-seat checkout, processed on `app`. */
async function paidCheckout(app: TestApp['app'] = t.app) {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const q = await post(app, user, '/api/reservations/checkouts/quote', {
    reservations: [
      { calendar: venue.seats[0].id, slot: `${day}T${String(hour++).padStart(2, '0')}:00` },
    ],
  });
  expect(q.statusCode).toBe(200);
  const id = q.json().checkout_id as number;
  const res = await post(app, user, `/api/reservations/checkouts/${id}/process`);
  expect(res.statusCode).toBe(200);
  return { user, id };
}

const owed = (id: number) =>
  t.db.select().from(receiptsOwed).where(eq(receiptsOwed.checkoutId, id));

/** Runs `fn` with this instance's sender woken by nothing (as if the process died). */
async function withoutSending<T>(app: TestApp['app'], fn: () => Promise<T>): Promise<T> {
  const wake = app.receipts.wake;
  app.receipts.wake = () => {};
  try {
    return await fn();
  } finally {
    app.receipts.wake = wake;
  }
}

describe('booking confirmations owed', () => {
  it('are recorded with the payment and sent after the answer', async () => {
    const { user, id } = await withoutSending(t.app, () => paidCheckout());
    expect(await owed(id)).toHaveLength(1);
    expect(await t.db.select().from(receiptsOwed)).toHaveLength(1);

    t.app.receipts.wake();
    const mails = await sentMails(t, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Your booking at .+ is confirmed$/);
    expect(await owed(id)).toHaveLength(0);
  });

  it('survive the instance that owed them: another instance sends each once', async () => {
    const other = await t.sibling();
    try {
      // The owing instance stops before sending anything, as a process killed after the commit.
      const { user, id } = await withoutSending(t.app, () => paidCheckout());
      expect(await owed(id)).toHaveLength(1);
      other.app.receipts.wake();
      await receiptsSent({ app: other.app, db: t.db });
      const mails = await sentMails(t, user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0].attachments.map((a) => a.filename)).toEqual(['booking.ics']);
    } finally {
      await other.close();
    }
  });

  it('are sent once when two instances take them at the same time', async () => {
    const other = await t.sibling();
    try {
      const paid = [];
      for (let i = 0; i < 6; i++) paid.push(await withoutSending(t.app, () => paidCheckout()));
      t.app.receipts.wake();
      other.app.receipts.wake();
      await Promise.all([t.app.receipts.idle(), other.app.receipts.idle()]);
      await receiptsSent(t);
      for (const { user, id } of paid) {
        // Each stored message is the mail its row says (a batch stores several at once).
        const mails = await sentMails(t, user.email);
        expect(mails).toHaveLength(1);
        expect(mails[0].to).toMatchObject({ text: user.email });
        expect(mails[0].text).toContain(`#${id}`);
      }
    } finally {
      await other.close();
    }
  });

  it('stay owed when sending fails, and are sent on a later try', async () => {
    const mailer = t.deps.mailer;
    const sendAll = mailer.sendAll;
    mailer.sendAll = () => Promise.reject(new Error('SMTP down'));
    let paid;
    try {
      paid = await paidCheckout();
      await t.app.receipts.idle();
      const [row] = await owed(paid.id);
      expect(row.attempts).toBe(1);
      expect(row.dueAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      mailer.sendAll = sendAll;
    }
    const email = paid.user.email;
    expect(await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, email))).toEqual(
      [],
    );
    await t.db
      .update(receiptsOwed)
      .set({ dueAt: new Date() })
      .where(eq(receiptsOwed.checkoutId, paid.id));
    t.app.receipts.wake();
    expect(await sentMails(t, paid.user.email)).toHaveLength(1);
  }, 30_000);
});
