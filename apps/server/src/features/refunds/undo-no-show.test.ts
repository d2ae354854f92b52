import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { auditEvents } from '../../db/schema/audit';
import { reservations } from '../../db/schema/booking';
import { locations } from '../../db/schema/venue';
import { createTestApp, type TestApp } from '../../test/test-app';
import { sentMails } from '../../test/sent-mail';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue } from '../../test/booking-factories';
import { NOT_A_NO_SHOW } from './undo-no-show';

let t: TestApp;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';

beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const send = (url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: bearer(user.token),
    ...(payload ? { payload } : {}),
  });
const lateSlot = (hoursAhead: number) =>
  DateTime.now()
    .setZone(zone)
    .plus({ hours: hoursAhead })
    .startOf('hour')
    .toFormat("yyyy-MM-dd'T'HH:mm");

async function bookPaid(venue: Awaited<ReturnType<typeof createVenue>>, hoursAhead: number) {
  const user = await createUser(t);
  await saveTestCard(t, user, '4242424242424242');
  const q = await send('/api/reservations/checkouts/quote', user, {
    reservations: [{ calendar: venue.seats[0].id, slot: lateSlot(hoursAhead) }],
  });
  expect(q.statusCode, q.body).toBe(200);
  const p = await send(`/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
  expect(p.statusCode, p.body).toBe(200);
  return { user, id: p.json().reservations[0].id as number };
}
const attendanceOf = async (id: number) =>
  (await t.db.select().from(reservations).where(eq(reservations.id, id)))[0].attendance;

describe('undoing Mark No-show (issue 41)', () => {
  it('puts the booking back to attended-unknown, audited, with one mail taking the first back', async () => {
    // The policy keeps everything for a no-show here: nothing went back, so it can be undone.
    const venue = await createVenue(t, { seats: 1, costCents: 2000 });
    const { user, id } = await bookPaid(venue, 3);
    const marked = await send(`/api/reservations/${id}/no_show`, staff);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().refund).toBeNull();
    const before = (await sentMails(t, user.email)).length;

    // A customer may not undo their own no-show.
    expect((await send(`/api/reservations/${id}/no_show/undo`, user)).statusCode).toBe(403);

    const undo = await send(`/api/reservations/${id}/no_show/undo`, staff);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toEqual({ detail: 'No-show undone.' });
    expect(await attendanceOf(id)).toBeNull();
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, 'reservation.no_show_undo')));
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toEqual({ attendance: null });
    const mails = await sentMails(t, user.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toContain('No longer a no-show');
    expect(mails.at(-1)!.text!.replace(/\s+/g, ' ')).toContain('is no longer marked as a no-show');

    // Twice is refused in words, and sends nothing more.
    const again = await send(`/api/reservations/${id}/no_show/undo`, staff);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [NOT_A_NO_SHOW] });
    expect(await sentMails(t, user.email)).toHaveLength(before + 1);
  });

  it('undoes the planner’s Mark No-show too', async () => {
    const venue = await createVenue(t, { seats: 1, costCents: 2000 });
    const { id } = await bookPaid(venue, 4);
    const marked = await send('/api/planner/attendance', staff, {
      reservations: [id],
      attendance: 'no_show',
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(await attendanceOf(id)).toBe('no_show');
    expect((await send(`/api/reservations/${id}/no_show/undo`, staff)).statusCode).toBe(200);
    expect(await attendanceOf(id)).toBeNull();
  });

  it('refuses, in words, once the no-show gave money back', async () => {
    const venue = await createVenue(t, { seats: 1, costCents: 2000 });
    await t.db
      .update(locations)
      .set({ lateCancellationKeepPercent: 50 })
      .where(eq(locations.id, venue.location.id));
    const { id } = await bookPaid(venue, 5);
    const marked = await send(`/api/reservations/${id}/no_show`, staff);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().refund.refund).toMatchObject({ card_cents: 1000 });
    const undo = await send(`/api/reservations/${id}/no_show/undo`, staff);
    expect(undo.statusCode).toBe(400);
    expect(undo.json().non_field_errors[0]).toMatch(
      /^The no-show gave \$10\.00 to the card back, which cannot be taken again/,
    );
    expect(await attendanceOf(id)).toBe('no_show');
  });

  it('answers 404 for a booking that does not exist', async () => {
    expect((await send('/api/reservations/2147483647/no_show/undo', staff)).statusCode).toBe(404);
  });
});
