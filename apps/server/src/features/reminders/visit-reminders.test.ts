import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { connect, type Database } from '../../db/client';
import { reservations, visitReminders } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { userPost } from '../../test/requests';
import { sentMails } from '../../test/sent-mail';
import { remindVisits, type ReminderContext } from './visit-reminders';

// Issue 45: an e-mail before each visit, exactly once per visit across instances and restarts,
// none for a visit booked inside the window, none for a customer who turned them off
// (decision 0119). The clock is the `now` each pass is given; bookings are made for real.

const ZONE = 'Europe/London';
let t: TestApp;
let other: Database;
let venue: Awaited<ReturnType<typeof createVenue>>;
let a: ReminderContext;
let b: ReminderContext;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  other = connect(t.deps.database.url, 3);
  venue = await createVenue(t, { seats: 2, costCents: 3000, timezone: ZONE, currency: 'GBP' });
  const base = {
    mailer: t.deps.mailer,
    publicUrl: t.deps.config.publicUrl,
    mailFrom: t.deps.config.mailFrom,
    logError: (error: unknown) => {
      throw error;
    },
  };
  a = { ...base, db: t.db };
  b = { ...base, db: other.db };
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const post = userPost(() => t);
const staffSettings = async (payload: object) => {
  const admin = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/settings',
    headers: bearer(admin.token),
    payload,
  });
  expect(res.statusCode).toBe(200);
};

/** A customer with a paid visit: `slots` back-to-back half-hours from `hour` on `day`. */
async function visit(day: string, hour: string, slots = 2) {
  const user = await createUser(t);
  await saveTestCard(t, user);
  const times = Array.from({ length: slots }, (_, i) => {
    const [h, m] = hour.split(':').map(Number);
    const at = h * 60 + m + 30 * i;
    return `${day}T${String(Math.floor(at / 60)).padStart(2, '0')}:${at % 60 ? '30' : '00'}`;
  });
  const q = await post(user, '/api/reservations/checkouts/quote', {
    reservations: times.map((slot) => ({ calendar: venue.seats[0].id, slot })),
  });
  expect(q.statusCode).toBe(200);
  const paid = await post(user, `/api/reservations/checkouts/${q.json().checkout_id}/process`);
  expect(paid.statusCode).toBe(200);
  const rows = await t.db.select().from(reservations).where(eq(reservations.userId, user.id));
  const start = Math.min(...rows.map((r) => r.time.getTime()));
  return { user, start };
}

const reminders = async (user: CreatedUser) =>
  (await sentMails(t, user.email)).filter((m) => m.subject?.startsWith('Reminder:'));

describe('the reminder before a visit', () => {
  it('goes once, 24 hours before, across two instances and a restart, and says what matters', async () => {
    const { user, start } = await visit(futureDate(3, ZONE), '18:00');
    // 25 hours before: not yet.
    expect(await remindVisits(a, new Date(start - 25 * HOUR))).toBe(0);
    // 23 hours before, two instances at once: one mail.
    const at = new Date(start - 23 * HOUR);
    const [x, y] = await Promise.all([remindVisits(a, at), remindVisits(b, at)]);
    expect(x + y).toBe(1);
    // Later passes (another minute, a restarted instance): nothing more.
    expect(await remindVisits(b, new Date(at.getTime() + 60_000))).toBe(0);
    expect(await remindVisits(a, new Date(start - HOUR))).toBe(0);
    const mails = await reminders(user);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toMatch(/^Reminder: your visit to .+ on \w{3}, \w{3} \d+ at 6:00 PM$/);
    expect(mail.text).toContain('Sim 1: ');
    expect(mail.text).toContain('6:00 PM to 7:00 PM');
    expect(mail.text).toContain(ZONE);
    // Paid by card, and inside the 24-hour cancellation window by now: nothing comes back.
    expect(mail.text).toContain(
      'Cancelling now would give nothing back: the £60.00 paid is kept under the cancellation policy.',
    );
    expect(mail.text).toContain('You can turn these reminders off in your profile.');
    expect(mail.attachments.map((f) => f.filename)).toEqual(['visit.ics']);
    expect(mail.attachments[0].content.toString()).toContain('BEGIN:VEVENT');
    expect(
      await t.db.select().from(visitReminders).where(eq(visitReminders.userId, user.id)),
    ).toHaveLength(1);
  });

  it('none for a visit booked inside the window, none for a customer who turned them off', async () => {
    await staffSettings({ reminder_hours: 96 });
    try {
      // Booked about three days ahead, inside a 96-hour window: no reminder.
      const inside = await visit(futureDate(3, ZONE), '12:00');
      expect(await remindVisits(a, new Date(inside.start - 10 * HOUR))).toBe(0);
      expect(await reminders(inside.user)).toHaveLength(0);
    } finally {
      await staffSettings({ reminder_hours: 24 });
    }
    const off = await visit(futureDate(4, ZONE), '12:00');
    const turned = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${off.user.id}`,
      headers: bearer(off.user.token),
      payload: { visit_reminders: false },
    });
    expect(turned.statusCode).toBe(200);
    expect(turned.json().visit_reminders).toBe(false);
    expect(await remindVisits(a, new Date(off.start - 20 * HOUR))).toBe(0);
    expect(await reminders(off.user)).toHaveLength(0);
  });

  it('a second reminder when set, once; a visit already inside it gets only that one', async () => {
    await staffSettings({ second_reminder_hours: 2 });
    try {
      const { user, start } = await visit(futureDate(5, ZONE), '10:00', 1);
      expect(await remindVisits(a, new Date(start - 30 * HOUR))).toBe(0);
      expect(await remindVisits(a, new Date(start - 20 * HOUR))).toBe(1);
      expect(await remindVisits(a, new Date(start - 90 * 60_000))).toBe(1);
      expect(await remindVisits(b, new Date(start - 60 * 60_000))).toBe(0);
      expect(await reminders(user)).toHaveLength(2);
      // The server was away all day: 90 minutes before, only the second one goes.
      const late = await visit(futureDate(5, ZONE), '14:00', 1);
      expect(await remindVisits(a, new Date(late.start - 90 * 60_000))).toBe(1);
      expect(await reminders(late.user)).toHaveLength(1);
    } finally {
      await staffSettings({ second_reminder_hours: 0 });
    }
  });

  it('the settings are checked: hours in range, named when wrong', async () => {
    const admin = await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(admin.token),
      payload: { reminder_hours: -1, second_reminder_hours: 100 },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['reminder_hours', 'second_reminder_hours']);
  });
});

describe('what cancelling now gives back, in the reminder', () => {
  it('all of it while the cancellation is free, with the time it stays free', async () => {
    const { cancelNowSentence } = await import('./reminder-mail');
    const quote = (paid: number, back: number, kept: number) =>
      ({
        paid_cents: paid,
        free_until: '2026-12-02T16:00:00.000Z',
        refund: { total_cents: back, kept_cents: kept },
      }) as Parameters<typeof cancelNowSentence>[0][number];
    expect(cancelNowSentence([quote(3000, 3000, 0), quote(3000, 3000, 0)], 'GBP', ZONE)).toBe(
      'Cancelling now gives back all you paid (£60.00); it stays free until Wed, Dec 2, 4:00 PM.',
    );
    expect(cancelNowSentence([quote(0, 0, 0)], 'GBP', ZONE)).toBe(
      'Nothing is paid for this visit yet, so cancelling it costs nothing.',
    );
    expect(cancelNowSentence([quote(3000, 1500, 1500)], 'GBP', ZONE)).toBe(
      'Cancelling now gives back £15.00 of the £30.00 paid: £15.00 is kept under the cancellation policy.',
    );
  });
});

describe('a pass killed between the mail and its mark', () => {
  it('leaves neither, and the restarted pass sends exactly one reminder', async () => {
    const { user, start } = await visit(futureDate(6, ZONE), '15:00', 1);
    const at = new Date(start - 20 * HOUR);
    // The mail is written, then the process dies before the transaction that marks it commits.
    const dying: ReminderContext = {
      ...a,
      mailer: {
        ...t.deps.mailer,
        send: async (message, db) => {
          await t.deps.mailer.send(message, db);
          throw new Error('killed after the mail, before its mark committed');
        },
      },
      logError: () => {},
    };
    expect(await remindVisits(dying, at)).toBe(0);
    expect(
      await t.db.select().from(visitReminders).where(eq(visitReminders.userId, user.id)),
    ).toHaveLength(0);
    expect(await reminders(user)).toHaveLength(0);
    // Restarted: the next pass sends it, once; later passes nothing.
    expect(await remindVisits(a, new Date(at.getTime() + 60_000))).toBe(1);
    expect(await remindVisits(b, new Date(at.getTime() + 120_000))).toBe(0);
    expect(await reminders(user)).toHaveLength(1);
  });
});
