import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { REASON_REQUIRED, ALREADY_CANCELLED } from '@paddock/contract/refunds';
import { outboxMessages } from '../../db/schema/content';
import { charges, localPaymentMethods, localRefunds } from '../../db/schema/payments';
import { refunds } from '../../db/schema/refunds';
import { auditEvents } from '../../db/schema/audit';
import { vouchers } from '../../db/schema/booking';
import { locations } from '../../db/schema/venue';
import { clubMemberships } from '../../db/schema/club';
import { createTestApp, type TestApp } from '../../test/test-app';
import { receiptsSent } from '../../test/sent-mail';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';
let slotDay = 3;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    seats: 4,
    costCents: 4500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
  });
  staff = await createUser(t, {
    isStaff: true,
    permissions: ['vouchers.add_voucher', 'reservations.change_reservation'],
  });
});
afterAll(() => t.close());

const send = (method: 'GET' | 'POST', url: string, user: CreatedUser, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
/** A fresh day per booking so tests never compete for seats. */
const freeSlot = () => `${futureDate(slotDay++, zone)}T18:00`;
/** A slot a few hours from now: inside the 24-hour late window. */
const lateSlot = (hoursAhead = 3) =>
  DateTime.now()
    .setZone(zone)
    .plus({ hours: hoursAhead })
    .startOf('hour')
    .toFormat("yyyy-MM-dd'T'HH:mm");

async function book(user: CreatedUser, seats: number[], slot: string, voucher?: string) {
  const q = await send('POST', '/api/reservations/checkouts/quote', user, {
    reservations: seats.map((i) => ({ calendar: venue.seats[i].id, slot })),
    ...(voucher ? { voucher } : {}),
  });
  expect(q.statusCode, q.body).toBe(200);
  const p = await send('POST', `/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
  expect(p.statusCode, p.body).toBe(200);
  return {
    quote: q.json(),
    ids: (p.json().reservations as { id: number }[]).map((r) => r.id),
  };
}
const customer = async (card = '4242424242424242') => {
  const user = await createUser(t);
  await saveTestCard(t, user, card);
  return user;
};
const cancel = (user: CreatedUser, id: number, body: object = {}) =>
  send('POST', `/api/reservations/${id}/cancel`, user, body);
const quoteOf = (user: CreatedUser, id: number, choice = '') =>
  send('GET', `/api/reservations/${id}/cancel_quote${choice ? `?refund=${choice}` : ''}`, user);
const refundRows = (userId: number) =>
  t.db
    .select()
    .from(charges)
    .where(and(eq(charges.userId, userId), eq(charges.kind, 'refund')));

describe('customer cancels inside the free window', () => {
  it('quotes exactly what comes back, then refunds the card in full, with a receipt', async () => {
    const user = await customer();
    const { quote, ids } = await book(user, [0], freeSlot());
    const q = await quoteOf(user, ids[0]);
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toMatchObject({
      free: true,
      paid_cents: quote.total_cents,
      refund: {
        card_cents: quote.total_cents,
        tax_cents: quote.sales_tax_cents,
        fee_cents: 150,
        credits: 0,
        voucher_cents: 0,
        kept_cents: 0,
        lines: [`$${(quote.total_cents / 100).toFixed(2)} back to your Visa ending 4242`],
      },
    });
    expect(q.json().policy_text).toContain('Free cancellation until 24 hours before your session.');

    const res = await cancel(user, ids[0]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ card_status: 'succeeded', refund: q.json().refund });
    // The transactions list (spec: amount_cents__gt 0) shows the refund as a negative line.
    const list = await send('GET', '/api/users/me/charges?amount_cents__gt=0', user);
    const lines = list.json().results;
    expect(lines[0]).toMatchObject({ amount_cents: -quote.total_cents, errors: '' });
    expect(lines[0].notes).toMatch(/^Refund: Sim 1/);
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email));
    const receipt = mail.find((m) => m.subject.startsWith('Refund receipt'))!;
    expect(receipt.text).toContain('back to your Visa ending 4242');
    expect(receipt.html).toContain('<li>');
    // Who, when, why: in the audit trail.
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, ids[0]), eq(auditEvents.action, 'reservation.cancel')));
    expect(audit.actorId).toBe(user.id);
  });

  it('cancels a multi-seat checkout seat by seat without making or losing a cent', async () => {
    const user = await customer();
    const code = (await send('POST', '/api/vouchers', staff, { amount_cents: 3333 })).json().code;
    const { quote, ids } = await book(user, [0, 1, 2], freeSlot(), code);
    expect(quote.discount_cents).toBe(3333);
    let card = 0;
    let voucher = 0;
    let tax = 0;
    for (const id of ids) {
      const r = (await cancel(user, id)).json().refund;
      card += r.refund.card_cents;
      voucher += r.refund.voucher_cents;
      tax += r.refund.tax_cents;
      expect(
        r.refund.lines.some((l: string) =>
          l.includes(`back to your voucher ending ${code.slice(-4)}`),
        ),
      ).toBe(true);
    }
    expect(card).toBe(quote.total_cents);
    expect(tax).toBe(quote.sales_tax_cents);
    expect(voucher).toBe(3333);
    const [v] = await t.db.select().from(vouchers).where(eq(vouchers.code, code));
    expect(v.balanceCents).toBe(3333);
    const provider = await t.db.select().from(localRefunds);
    const mine = (await refundRows(user.id)).map((r) => r.chargeRef);
    expect(provider.filter((r) => mine.includes(r.id)).reduce((n, r) => n + r.amountCents, 0)).toBe(
      quote.total_cents,
    );
  });

  it('gives a member’s credits back to the credits balance', async () => {
    const user = await customer();
    expect(
      (await send('POST', '/api/users/me/charges/credits_enroll', user, { credits_amount: 1000 }))
        .statusCode,
    ).toBe(200);
    const { quote, ids } = await book(user, [0], freeSlot());
    expect(quote.credits_using).toBe(450);
    const before = (await send('GET', '/api/users/me/subscriptions', user)).json().results[0]
      .credits_balance;
    const r = (await cancel(user, ids[0])).json().refund;
    expect(r.refund).toMatchObject({ credits: 450, card_cents: 0, credits_wait: false });
    expect(r.refund.lines).toEqual(['450 credits back to your credits balance']);
    const after = (await send('GET', '/api/users/me/subscriptions', user)).json().results[0]
      .credits_balance;
    expect(after - before).toBe(450);
  });
});

describe('late cancellations and no-shows', () => {
  it('keeps 100 % by default inside the window', async () => {
    const user = await customer();
    const { ids } = await book(user, [3], lateSlot());
    const q = (await quoteOf(user, ids[0])).json();
    expect(q).toMatchObject({ free: false, refund: { card_cents: 0, total_cents: 0 } });
    // No "free until" a time before the booking was made (issue 30).
    expect(q.policy_text).toContain(
      'For this booking: it starts within 24 hours, so cancelling now is not free.',
    );
    expect(q.policy_text).not.toContain('free until');
    const r = await cancel(user, ids[0]);
    expect(r.statusCode).toBe(200);
    // Nothing goes back: no refund, no transaction line; the audit trail says what was kept.
    expect(r.json().refund).toBeNull();
    expect(await refundRows(user.id)).toHaveLength(0);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, ids[0]), eq(auditEvents.action, 'reservation.cancel')));
    expect(audit.after).toMatchObject({ kept_cents: q.paid_cents, free: false });
  });

  it('keeps the location’s share (50 %) and a no-show is a late cancellation', async () => {
    const late = await createVenue(t, { seats: 2, costCents: 2000 });
    await t.db
      .update(locations)
      .set({ lateCancellationKeepPercent: 50 })
      .where(eq(locations.id, late.location.id));
    const user = await customer();
    const slot = lateSlot(4);
    const q1 = await send('POST', '/api/reservations/checkouts/quote', user, {
      reservations: [0, 1].map((i) => ({ calendar: late.seats[i].id, slot })),
    });
    const p = await send(
      'POST',
      `/api/reservations/checkouts/${q1.json().checkout_id}/process`,
      user,
    );
    const [a, b] = p.json().reservations.map((r: { id: number }) => r.id);
    const r = (await cancel(user, a)).json().refund;
    expect(r.refund).toMatchObject({ card_cents: 1000, kept_cents: 1000 });
    // The planner's Mark No-show refunds the late share too, once.
    const mark = () =>
      send('POST', '/api/planner/attendance', staff, { reservations: [b], attendance: 'no_show' });
    expect((await mark()).statusCode).toBe(200);
    const [ns] = await t.db.select().from(refunds).where(eq(refunds.reservationId, b));
    expect(ns).toMatchObject({ choice: 'no_show', cardCents: 1000, keptCents: 1000 });
    expect((await mark()).statusCode).toBe(200);
    expect((await send('POST', `/api/reservations/${b}/no_show`, staff)).statusCode).toBe(400);
    expect(await t.db.select().from(refunds).where(eq(refunds.reservationId, b))).toHaveLength(1);
  });
});

describe('once, whatever the retries', () => {
  it('two concurrent cancels of one booking give one refund', async () => {
    const user = await customer();
    const { quote, ids } = await book(user, [1], freeSlot());
    const results = await Promise.all([
      cancel(user, ids[0]),
      cancel(user, ids[0]),
      cancel(user, ids[0]),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect(results.find((r) => r.statusCode === 400)!.json()).toEqual({
      non_field_errors: [ALREADY_CANCELLED],
    });
    expect(await t.db.select().from(refunds).where(eq(refunds.reservationId, ids[0]))).toHaveLength(
      1,
    );
    const lines = await refundRows(user.id);
    expect(lines).toHaveLength(1);
    expect(lines[0].amountCents).toBe(-quote.total_cents);
  });

  it('records a declined refund, shows it, and retries it once it can go through', async () => {
    const user = await customer('4000000000005126');
    const { quote, ids } = await book(user, [2], freeSlot());
    const res = await cancel(user, ids[0]);
    const refund = res.json().refund;
    expect(refund).toMatchObject({
      card_status: 'failed',
      last_error: 'The refund to this card was declined by the bank.',
    });
    const list = (await send('GET', '/api/users/me/charges?amount_cents__gt=0', user)).json()
      .results;
    expect(list[0]).toMatchObject({
      amount_cents: -quote.total_cents,
      errors: refund.last_error,
      refund: refund.id,
    });
    // A customer cannot retry; staff can.
    expect((await send('POST', `/api/refunds/${refund.id}/retry`, user)).statusCode).toBe(403);
    await t.db.update(localPaymentMethods).set({ refundFailure: null });
    const retry = await send('POST', `/api/refunds/${refund.id}/retry`, staff);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().refund.card_status).toBe('succeeded');
    expect((await send('POST', `/api/refunds/${refund.id}/retry`, staff)).statusCode).toBe(400);
    const rows = await refundRows(user.id);
    expect(rows.map((r) => r.errors === '').sort()).toEqual([false, true]);
  });
});

describe('staff choices', () => {
  it('full refund of a late booking, or none with a reason', async () => {
    const user = await customer();
    const { quote, ids } = await book(user, [0, 1], lateSlot(5));
    const q = await quoteOf(staff, ids[0], 'full');
    expect(q.json().refund.card_cents).toBeGreaterThan(0);
    const full = await cancel(staff, ids[0], { refund: 'full' });
    expect(full.json().refund.refund.card_cents).toBe(q.json().refund.card_cents);
    const missing = await cancel(staff, ids[1], { refund: 'none' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ reason: [REASON_REQUIRED] });
    const none = await cancel(staff, ids[1], { refund: 'none', reason: 'Broke the wheel' });
    expect(none.statusCode).toBe(200);
    expect(none.json().refund).toMatchObject({
      reason: 'Broke the wheel',
      refund: { card_cents: 0, kept_cents: quote.total_cents - q.json().refund.card_cents },
    });
  });

  it('a customer may not choose, nor cancel someone else’s booking', async () => {
    const user = await customer();
    const other = await customer();
    const { ids } = await book(user, [2], freeSlot());
    expect((await cancel(user, ids[0], { refund: 'full' })).statusCode).toBe(403);
    expect((await quoteOf(user, ids[0], 'full')).statusCode).toBe(403);
    expect((await cancel(other, ids[0])).statusCode).toBe(404);
    expect((await quoteOf(other, ids[0])).statusCode).toBe(404);
  });

  it('names the field of bad input', async () => {
    const user = await customer();
    const { ids } = await book(user, [3], freeSlot());
    const bad = await cancel(staff, ids[0], { refund: 'everything' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['refund']);
    const extra = await cancel(user, ids[0], { amount_cents: 1 });
    expect(extra.statusCode).toBe(400);
    expect(Object.keys(extra.json())).toEqual(['amount_cents']);
    expect((await quoteOf(user, ids[0], 'nope')).statusCode).toBe(400);
    const long = await cancel(staff, ids[0], { refund: 'none', reason: 'x'.repeat(501) });
    expect(Object.keys(long.json())).toEqual(['reason']);
  });
});

describe('planner delete with a refund choice', () => {
  const plannerDelete = (payload: object) => send('POST', '/api/planner/delete', staff, payload);

  it('refunds per the staff choice; without one nothing goes back, as before', async () => {
    const user = await customer();
    const { quote, ids } = await book(user, [0, 1], freeSlot());
    expect((await plannerDelete({ reservations: [ids[0]], refund: 'none' })).json()).toEqual({
      reason: [REASON_REQUIRED],
    });
    const res = await plannerDelete({ reservations: [ids[0]], refund: 'full' });
    expect(res.statusCode, res.body).toBe(200);
    const [r] = await t.db.select().from(refunds).where(eq(refunds.reservationId, ids[0]));
    expect(r).toMatchObject({ choice: 'full', cardStatus: 'succeeded', createdById: staff.id });
    expect((await plannerDelete({ reservations: [ids[1]] })).statusCode).toBe(200);
    expect(await t.db.select().from(refunds).where(eq(refunds.reservationId, ids[1]))).toHaveLength(
      0,
    );
    const lines = await refundRows(user.id);
    expect(lines.reduce((n, l) => n + l.amountCents, 0)).toBe(-r.cardCents);
    expect(r.cardCents).toBeLessThan(quote.total_cents);
  });
});

describe('the policy where the customer reads it', () => {
  it('is in the checkout quote and the booking e-mail', async () => {
    const user = await customer();
    const q = await send('POST', '/api/reservations/checkouts/quote', user, {
      reservations: [{ calendar: venue.seats[3].id, slot: freeSlot() }],
    });
    expect(q.json().cancellation_policy).toBe(
      'Free cancellation until 24 hours before your session. Later cancellations and no-shows are not refunded.',
    );
    await send('POST', `/api/reservations/checkouts/${q.json().checkout_id}/process`, user);
    await receiptsSent(t);
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.to, user.email));
    expect(mail.find((m) => m.subject.includes('confirmed'))!.text).toContain(
      'Cancellation policy: Free cancellation until 24 hours before your session.',
    );
  });
});

describe('credits of a member not in good standing', () => {
  it('wait, and go back to the card when the member leaves', async () => {
    const user = await customer();
    expect(
      (await send('POST', '/api/users/me/charges/credits_enroll', user, { credits_amount: 1000 }))
        .statusCode,
    ).toBe(200);
    const { ids } = await book(user, [1], freeSlot());
    await t.db
      .update(clubMemberships)
      .set({ status: 'past_due' })
      .where(eq(clubMemberships.userId, user.id));
    const r = (await cancel(user, ids[0])).json().refund;
    expect(r.refund).toMatchObject({ credits: 450, credits_wait: true });
    expect(r.refund.lines[0]).toBe(
      '450 credits back to your credits balance once your membership is in good standing again',
    );
    expect((await send('POST', '/api/users/me/charges/credits_unenroll', user)).statusCode).toBe(
      200,
    );
    const [row] = await t.db.select().from(refunds).where(eq(refunds.reservationId, ids[0]));
    expect(row).toMatchObject({
      creditsStatus: 'to_card',
      cardCents: 4500,
      cardStatus: 'succeeded',
    });
  });
});

describe('policy settings', () => {
  it('club members get their own window; a null window is stored and read back', async () => {
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const patch = (body: object) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/settings',
        headers: bearer(admin.token),
        payload: body,
      });
    expect((await patch({ club_cancellation_window_hours: 2 })).statusCode).toBe(200);
    const member = await customer();
    await send('POST', '/api/users/me/charges/credits_enroll', member, { credits_amount: 1000 });
    const { ids } = await book(member, [2], lateSlot(6));
    expect((await quoteOf(member, ids[0])).json()).toMatchObject({ free: true });
    const res = await patch({ club_cancellation_window_hours: null });
    expect(res.statusCode, res.body).toBe(200);
    expect((await quoteOf(member, ids[0])).json()).toMatchObject({ free: false });
  });
});

describe('moving a paid booking', () => {
  it('is allowed inside the free window only, at the same location, keeping the payment', async () => {
    const user = await customer();
    const move = (id: number, slot: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/reservations/${id}`,
        headers: bearer(user.token),
        payload: { slot },
      });
    const early = (await book(user, [3], freeSlot())).ids[0];
    const moved = await move(early, `${futureDate(slotDay++, zone)}T19:00`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ paid: true });
    const late = (await book(user, [3], lateSlot(7))).ids[0];
    const refused = await move(late, `${futureDate(slotDay++, zone)}T19:00`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      non_field_errors: ['A paid booking can be moved until 24 hours before it starts.'],
    });
  });
});
