import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { PAYMENT_STOPPED_MESSAGE } from '@paddock/contract/refunds';
import { auditEvents } from '../../db/schema/audit';
import { checkouts, reservations } from '../../db/schema/booking';
import { charges, localCharges, localRefunds } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { type createVenue, futureDate, halfHourSlots } from '../../test/booking-factories';
import { cancelDuringChallengeVenue, waitingCheckout } from '../../test/waiting-checkout';
import { checkoutContext } from '../../test/checkout-context';
import { userPost } from '../../test/requests';
import { sentMail, sentMails } from '../../test/sent-mail';
import { settleCheckout, type FinishContext } from './finish-checkout';
import { repairCheckouts, type RepairContext } from './money-repair';
import { REFUND_OWED_MESSAGE } from './refund-owed';

// Issue 40: a seat cancelled while its 3-D Secure challenge is open was charged anyway and
// never refunded. A cancel and an open challenge cannot both win (decision 0114): the cancel
// stops the payment at the provider first; a payment that still goes through for seats no
// longer held is refunded in full, once, by the money repair.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
let ctx: RepairContext & FinishContext;
const day = futureDate(9, 'America/Los_Angeles');
const nextSlot = halfHourSlots(day, 9);

beforeAll(async () => {
  t = await createTestApp();
  ({ venue, staff } = await cancelDuringChallengeVenue(t, 2));
  ctx = checkoutContext(t);
});
afterAll(() => t.close());

const post = userPost(() => t);

/** A customer with a card that always asks for 3-D Secure, waiting in its challenge. */
async function waiting(seats = 1) {
  const user = await createUser(t);
  await saveTestCard(t, user, '4000002760003184');
  const slot = nextSlot();
  const calendars = venue.seats.slice(0, seats).map((s) => s.id);
  return { user, slot, ...(await waitingCheckout(t, user, calendars, slot)) };
}

/** The money of a checkout: provider charges that succeeded, their refunds, our records. */
async function money(id: number) {
  const atProvider = await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:checkout-${id}`));
  const succeeded = atProvider.filter((c) => c.status === 'succeeded');
  const refunds = succeeded.length
    ? await t.db.select().from(localRefunds).where(eq(localRefunds.chargeId, succeeded[0].id))
    : [];
  const recorded = await t.db
    .select()
    .from(charges)
    .where(like(charges.idempotencyKey, `%checkout-${id}%`));
  const [checkout] = await t.db.select().from(checkouts).where(eq(checkouts.id, id));
  const kept =
    succeeded.reduce((n, c) => n + c.amountCents, 0) -
    refunds.filter((r) => r.status === 'succeeded').reduce((n, r) => n + r.amountCents, 0);
  return { succeeded, refunds, recorded, checkout, kept };
}

/** The challenge answered "complete" after the cancel; the bank's page may already refuse it. */
async function passLate(url: string) {
  await answerChallenge(t, url, 'complete').catch(() => null);
}

const cancel = (user: CreatedUser, reservation: number) =>
  post(user, `/api/reservations/${reservation}/cancel`, { refund: 'policy', reason: '' });

describe('a booking cancelled while its 3-D Secure challenge is open', () => {
  it('stops the payment first: nothing is charged, whatever comes after (return, retry, webhook, repair)', async () => {
    const { user, id, slot, booking, url } = await waiting();
    const res = await cancel(user, booking.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: PAYMENT_STOPPED_MESSAGE, refund: null });

    await passLate(url);
    const back = await post(user, `/api/reservations/checkouts/${id}/process`);
    expect(back.statusCode).toBe(402);
    expect(await settleCheckout(ctx, id)).toBeNull();
    await repairCheckouts(ctx, { afterMs: 0, now: new Date(Date.now() + 3_600_000) });

    const m = await money(id);
    expect(m.checkout.status).toBe('released');
    expect(m.succeeded).toHaveLength(0);
    expect(m.kept).toBe(0);
    expect(m.recorded.filter((c) => c.errors === '' && c.amountCents > 0)).toHaveLength(0);

    // The seat is free for someone else, and nobody is charged for it twice.
    const other = await createUser(t);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(other.token),
      payload: { calendar: venue.seats[0].id, slot },
    });
    expect(taken.statusCode).toBe(201);

    // One mail in words, one audit row.
    // One mail, saying the cancel stopped the payment (not that the bank's check failed).
    const mails = await sentMails(t, user.email);
    const after = mails.filter((m) => !/confirmed/.test(m.subject ?? ''));
    expect(after.map((m) => m.subject)).toEqual(['Booking cancelled: nothing was charged']);
    expect(after[0].text).toMatch(/payment\s+was\s+stopped,\s+and\s+nothing\s+was\s+charged/);
    expect(after[0].text).not.toContain('did not pass');
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.targetId, booking.id), eq(auditEvents.action, 'reservation.cancel')),
      );
    expect(trail).toHaveLength(1);
  });

  it('says so when the other seats of the same payment are let go with it', async () => {
    const { user, id, booking } = await waiting(2);
    const res = await cancel(user, booking.id);
    expect(res.json().detail).toBe(
      `${PAYMENT_STOPPED_MESSAGE} The other seats booked with it were let go too.`,
    );
    const left = await t.db.select().from(reservations).where(eq(reservations.checkoutId, id));
    expect(left.every((r) => r.cancelledAt !== null)).toBe(true);
    expect((await money(id)).kept).toBe(0);
  });

  it('a challenge passed just before the cancel: paid once, then refunded under the policy', async () => {
    const { user, id, booking, url } = await waiting();
    await answerChallenge(t, url, 'complete');
    const res = await cancel(user, booking.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().refund).not.toBeNull();
    const m = await money(id);
    expect(m.checkout.status).toBe('paid');
    expect(m.succeeded).toHaveLength(1);
    // Nine days ahead: free to cancel, so all of it came back, once.
    expect(m.kept).toBe(0);
    expect(m.refunds.filter((r) => r.status === 'succeeded')).toHaveLength(1);
  });

  it('a move waits for the payment to end, saying why', async () => {
    const { user, booking } = await waiting();
    const res = await post(user, `/api/reservations/${booking.id}/move`, {
      calendar: venue.seats[1].id,
      slot: booking.slot,
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain("waiting for the bank's check");
  });
});

describe('a payment that goes through for seats no longer held', () => {
  it('is answered in words and refunded in full, once, by the money repair', async () => {
    const { user, id, booking, url } = await waiting();
    // The planner refuses to delete it while the bank checks, saying why.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/planner/delete',
      headers: bearer(staff.token),
      payload: { reservations: [booking.id] },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json())).toContain("waiting for the bank's check");
    // A way that does not wait (here: another seat's booking cancelled by hand in the database,
    // as any path that forgets the payment would): the money must still come back.
    await t.db
      .update(reservations)
      .set({ cancelledAt: new Date() })
      .where(eq(reservations.id, booking.id));
    await answerChallenge(t, url, 'complete');

    // The webhook and the web's return, in either order: the same answer, no second charge.
    const hooked = await settleCheckout(ctx, id);
    expect(hooked?.result).toEqual({
      statusCode: 409,
      body: { detail: REFUND_OWED_MESSAGE, code: 'booking_cancelled_refunded' },
    });
    const back = await post(user, `/api/reservations/checkouts/${id}/process`);
    expect(back.statusCode).toBe(409);
    expect(back.json().detail).toBe(REFUND_OWED_MESSAGE);
    const owed = await money(id);
    expect(owed.checkout.status).toBe('refund_owed');
    expect(owed.kept).toBeGreaterThan(0);
    expect(owed.kept).toBe(owed.succeeded[0].amountCents);

    await repairCheckouts(ctx, { afterMs: 0 });
    await Promise.all([repairCheckouts(ctx, { afterMs: 0 }), repairCheckouts(ctx, { afterMs: 0 })]);
    const m = await money(id);
    expect(m.checkout.status).toBe('refunded');
    expect(m.succeeded).toHaveLength(1);
    expect(m.refunds).toHaveLength(1);
    expect(m.kept).toBe(0);
    const [paid] = m.recorded.filter((c) => c.amountCents > 0 && c.errors === '');
    const refundLines = await t.db
      .select()
      .from(charges)
      .where(eq(charges.idempotencyKey, `stray-refund-${paid.id}`));
    expect(refundLines).toHaveLength(1);
    expect(refundLines[0]).toMatchObject({ amountCents: -m.succeeded[0].amountCents, errors: '' });

    const mail = await sentMail(t, user.email, new RegExp(`^Refund receipt: booking #${id}$`));
    expect(mail.text).toContain('back to your card');
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'checkout.refund_cancelled_while_paying'));
    expect(trail.filter((a) => a.targetId === id)).toHaveLength(1);
  });

  it('a crash after the refund went out and before it was recorded: the next pass records it, no second refund', async () => {
    const { id, booking, url } = await waiting();
    await t.db
      .update(reservations)
      .set({ cancelledAt: new Date() })
      .where(eq(reservations.id, booking.id));
    await answerChallenge(t, url, 'complete');
    await settleCheckout(ctx, id);
    const [paid] = (await money(id)).recorded.filter((c) => c.amountCents > 0 && c.errors === '');
    // The provider refunded under the repair's key; the process died before writing a line.
    const lost = await t.deps.payments.refund(
      paid.chargeRef!,
      paid.amountCents,
      `${paid.chargeRef}:stray-refund-${paid.id}`,
    );
    expect(lost.ok).toBe(true);
    expect((await money(id)).checkout.status).toBe('refund_owed');
    await repairCheckouts(ctx, { afterMs: 0 });
    const m = await money(id);
    expect(m.checkout.status).toBe('refunded');
    expect(m.refunds).toHaveLength(1);
    expect(m.kept).toBe(0);
  });
});

describe('an account deleted while its payment waits for the bank', () => {
  it('stops the payment first: the late pass takes nothing', async () => {
    const { id, user, url } = await waiting();
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${user.id}`,
      headers: bearer(staff.token),
    });
    expect(gone.statusCode).toBe(204);
    await passLate(url);
    expect(await settleCheckout(ctx, id)).toBeNull();
    await repairCheckouts(ctx, { afterMs: 0 });
    const m = await money(id);
    expect(m.checkout.status).toBe('released');
    expect(m.succeeded).toHaveLength(0);
  });
});

describe('an outstanding balance being paid on the bank’s page', () => {
  /** Owes one declined booking, then pays the balance with the card that always asks. */
  async function owingChallenged() {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const q = await post(user, '/api/reservations/checkouts/quote', {
      reservations: [{ calendar: venue.seats[0].id, slot: nextSlot() }],
    });
    const id = q.json().checkout_id as number;
    expect((await post(user, `/api/reservations/checkouts/${id}/process`)).statusCode).toBe(402);
    await saveTestCard(t, user, '4000002760003184');
    const res = await post(user, '/api/users/me/charges/capture_outstanding');
    expect(res.json()).toMatchObject({ status: 'requires_action' });
    const [booking] = await t.db.select().from(reservations).where(eq(reservations.checkoutId, id));
    return { user, booking, url: res.json().challenge_url as string };
  }

  it('a cancel of one of its bookings stops that payment first: the late pass takes nothing', async () => {
    const { user, booking, url } = await owingChallenged();
    const res = await cancel(user, booking.id);
    expect(res.statusCode).toBe(200);
    await passLate(url);
    // The web's return: nothing owed, nothing charged.
    const back = await post(user, '/api/users/me/charges/capture_outstanding');
    expect(back.json()).toMatchObject({ amount_cents: 0 });
    const atProvider = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.customerId, await customerOf(user)));
    // The declined booking and the balance's intent are there; none of them took money.
    expect(atProvider.some((c) => c.idempotencyKey?.includes(':outstanding-'))).toBe(true);
    expect(atProvider.filter((c) => c.status === 'succeeded')).toHaveLength(0);
  });

  it('a move waits for it, saying why', async () => {
    const { user, booking } = await owingChallenged();
    const res = await post(user, `/api/reservations/${booking.id}/move`, {
      calendar: venue.seats[1].id,
      slot: booking.slot,
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain("waiting for the bank's check");
  });
});

/** The provider's customer id of a user (the local provider's charges are filed under it). */
async function customerOf(user: CreatedUser) {
  const { rows } = await t.deps.database.pool.query<{ ref: string }>(
    'select customer_ref as ref from cards where user_id = $1',
    [user.id],
  );
  return rows[0].ref;
}
