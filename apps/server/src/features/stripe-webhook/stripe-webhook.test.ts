import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { auditEvents } from '../../db/schema/audit';
import { checkouts, reservations } from '../../db/schema/booking';
import { cards, charges, paymentDisputes } from '../../db/schema/payments';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import { checkoutContext } from '../../test/checkout-context';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { sentMails } from '../../test/sent-mail';
import { StripeStandIn } from '../../test/stripe-stand-in';
import { signedDelivery, stripeEvent, testSignature, WEBHOOK_URL } from '../../test/signed-events';
import { claimOnly } from '../../test/claimed-checkout';
import { repairCheckouts } from '../checkout/money-repair';

// Stripe's webhook (decision 0084) through the official SDK: payloads signed with the SDK's own
// test-header helper, the provider's calls answered by a stand-in Stripe.

const SECRET = 'whsec_test_paddock';
const stripe = new StripeStandIn();
let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
const day = futureDate(5, 'America/Los_Angeles');
let slots = 0;
let deliver: ReturnType<typeof signedDelivery>['deliver'];
let stored: ReturnType<typeof signedDelivery>['stored'];
let handled: ReturnType<typeof signedDelivery>['handled'];

beforeAll(async () => {
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_paddock',
    STRIPE_WEBHOOK_SECRET: SECRET,
    ...(await stripe.start()),
  });
  venue = await createVenue(t, { seats: 1, costCents: 3000 });
  ({ deliver, stored, handled } = signedDelivery(t, SECRET));
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const URL = WEBHOOK_URL;
const event = stripeEvent;

async function customer() {
  const user = await createUser(t, { firstName: 'Nigel', lastName: 'Mansell' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/card',
    headers: bearer(user.token),
    payload: { token: 'tok_visa' },
  });
  expect(res.statusCode).toBe(200);
  const [card] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
  return { user, card };
}

/**
 * A one-seat checkout whose request charged the card at Stripe and then died: claimed, the
 * PaymentIntent made under the checkout's key, nothing recorded.
 */
async function chargedAtStripeOnly(user: CreatedUser, card: typeof cards.$inferSelect) {
  const slot = `${day}T${String(10 + slots++).padStart(2, '0')}:00`;
  const q = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers: bearer(user.token),
    payload: { reservations: [{ calendar: venue.seats[0].id, slot }] },
  });
  expect(q.statusCode).toBe(200);
  const checkout = await claimOnly(t, user, q.json().checkout_id);
  const result = await t.deps.payments.charge({
    customerRef: card.customerRef,
    paymentMethodRef: card.paymentMethodRef,
    amountCents: checkout.amounts.totalCents,
    currency: 'USD',
    description: `Booking #${checkout.id}`,
    idempotencyKey: `${card.customerRef}:checkout-${checkout.id}`,
  });
  expect(result.ok).toBe(true);
  const intent = stripe.intents.find((i) => i.id === result.chargeRef)!;
  return { checkout, intent };
}

const checkoutState = async (id: number) => ({
  status: (await t.db.select().from(checkouts).where(eq(checkouts.id, id)))[0].status,
  bookings: await t.db
    .select({ paid: reservations.paid, chargeId: reservations.chargeId })
    .from(reservations)
    .where(eq(reservations.checkoutId, id)),
  recorded: await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${id}`)),
});
const intentCreations = () =>
  stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;

describe('the Stripe webhook: who may post', () => {
  it('answers 400 and stores nothing when unsigned, signed with another secret, stale or altered', async () => {
    const ev = event('payment_intent.payment_failed', { id: 'pi_x', object: 'payment_intent' });
    const payload = JSON.stringify(ev);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toEqual({ 'stripe-signature': ['This header is required.'] });
    const refused = { 'stripe-signature': [expect.stringMatching(/does not match/)] };
    const other = await deliver(ev, { secret: 'whsec_someone_else' });
    expect([other.statusCode, other.json()]).toEqual([400, refused]);
    // Ten minutes old: beyond the SDK's five-minute tolerance (a replayed request).
    const stale = await deliver(ev, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect([stale.statusCode, stale.json()]).toEqual([400, refused]);
    const signed = testSignature(payload, SECRET);
    const altered = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/json', 'stripe-signature': signed },
      payload: payload.replace('pi_x', 'pi_y'),
    });
    expect([altered.statusCode, altered.json()]).toEqual([400, refused]);
    expect(await stored(ev.id)).toEqual([]);
  });

  it('stores an event once: a redelivery answers 200 and changes nothing', async () => {
    const ev = event('customer.updated', { id: 'cus_1', object: 'customer' });
    const first = await deliver(ev);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true }]);
    const row = await handled(ev.id);
    expect(row).toMatchObject({ type: 'customer.updated', attempts: 1, lastError: '' });
    const again = await deliver(ev);
    expect([again.statusCode, again.json()]).toEqual([200, { received: true }]);
    expect(await stored(ev.id)).toEqual([row]);
  });

  it('keeps the body as the bytes Stripe signed, whatever the content type', async () => {
    const ev = event('customer.updated', { id: 'cus_2', object: 'customer' });
    // Pretty-printed JSON parsed and serialised again would no longer match its signature.
    const payload = JSON.stringify(ev, null, 2);
    const header = testSignature(payload, SECRET);
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'text/plain', 'stripe-signature': header },
      payload,
    });
    expect(res.statusCode).toBe(200);
    await handled(ev.id);
  });
});

describe('payment_intent events', () => {
  it('succeeded: a checkout still charging is finished by the same finish, with that charge', async () => {
    const { user, card } = await customer();
    const { checkout, intent } = await chargedAtStripeOnly(user, card);
    const before = intentCreations();
    const ev = event('payment_intent.succeeded', intent);
    expect((await deliver(ev)).statusCode).toBe(200);
    await handled(ev.id);
    const s = await checkoutState(checkout.id);
    expect(s.status).toBe('paid');
    expect(s.recorded).toMatchObject([{ chargeRef: intent.id, errors: '', amountCents: 3000 }]);
    expect(s.bookings).toEqual([{ paid: true, chargeId: s.recorded[0].id }]);
    expect(intentCreations()).toBe(before);

    // Another delivery of the same success (a new event id) finds the checkout answered.
    const again = event('payment_intent.succeeded', intent);
    await deliver(again);
    await handled(again.id);
    expect(await checkoutState(checkout.id)).toEqual(s);
    expect(intentCreations()).toBe(before);
  });

  it('succeeded for no checkout, or failed: records nothing new', async () => {
    const count = async () => (await t.db.select().from(charges)).length;
    const n = await count();
    const club = event('payment_intent.succeeded', {
      id: 'pi_club',
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { paddock_key: 'cus_9:club-4' },
    });
    const failed = event('payment_intent.payment_failed', {
      id: 'pi_failed',
      object: 'payment_intent',
      status: 'requires_payment_method',
      metadata: { paddock_key: 'cus_9:checkout-999999' },
      last_payment_error: { code: 'card_declined' },
    });
    await deliver(club);
    await deliver(failed);
    await handled(club.id);
    await handled(failed.id);
    expect(await count()).toBe(n);
  });
});

describe('the money repair after Stripe forgot the key (decision 0072 risk)', () => {
  it('uses the PaymentIntent Stripe already made for the checkout instead of charging again', async () => {
    const { user, card } = await customer();
    const { checkout, intent } = await chargedAtStripeOnly(user, card);
    stripe.forgetKeys();
    const before = intentCreations();
    const report = await repairCheckouts(checkoutContext(t), { afterMs: 0 });
    expect(report.locked).toBe(true);
    const s = await checkoutState(checkout.id);
    expect(s.status).toBe('paid');
    expect(s.recorded).toMatchObject([{ chargeRef: intent.id, errors: '' }]);
    expect(intentCreations()).toBe(before);
    const lookUp = stripe.requests.filter(
      (r) => r.method === 'GET' && r.path === '/v1/payment_intents',
    );
    expect(lookUp.at(-1)?.params).toMatchObject({ customer: card.customerRef });
  });
});

describe('charge.refunded', () => {
  it("a refund made in the dashboard appears once in the customer's transactions; Paddock's own refunds are not repeated", async () => {
    const { user } = await customer();
    const paid = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: 5000,
      currency: 'USD',
      notes: 'Club membership',
      idempotencyKey: `club-${user.id}`,
      kind: 'club',
    });
    expect(paid.ok).toBe(true);
    const pi = paid.charge.chargeRef!;
    const ours = await t.deps.payments.refund(pi, 500, `${pi}:refund-77-0`);
    expect(ours.ok).toBe(true);
    const dashboard = stripe.dashboardRefund(pi, 1200);
    const charge = { id: 'ch_dash', object: 'charge', payment_intent: pi, amount_refunded: 1700 };
    const ev = event('charge.refunded', charge);
    await deliver(ev);
    await handled(ev.id);
    const again = event('charge.refunded', charge);
    await deliver(again);
    await handled(again.id);

    const lines = (
      await t.app.inject({
        method: 'GET',
        url: '/api/users/me/charges',
        headers: bearer(user.token),
      })
    ).json();
    const list = Array.isArray(lines) ? lines : lines.results;
    expect(list.filter((l: { amount_cents: number }) => l.amount_cents < 0)).toEqual([
      expect.objectContaining({
        amount_cents: -1200,
        currency: 'USD',
        errors: '',
        charge_id: dashboard.id,
        notes: `Refund at Stripe of charge #${paid.charge.id}: Club membership`,
      }),
    ]);

    // And in the owner's reports, on the day it was recorded, off the total.
    const owner = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
    const today = DateTime.now().setZone(venue.location.timezone).toISODate()!;
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/reports?location=${venue.location.id}&from=${today}&to=${today}`,
      headers: bearer(owner.token),
    });
    expect(report.statusCode).toBe(200);
    const [row] = report.json().revenue_by_day;
    expect(row).toMatchObject({ refunds_cents: -1200, club_cents: 5000, total_cents: 3800 });
  });
});

describe('charge.dispute events', () => {
  it('flag the customer and the booking, write the audit trail and tell the staff who see the money', async () => {
    const money = await createUser(t, { isStaff: true, permissions: ['reports.view_report'] });
    const other = await createUser(t, { isStaff: true, permissions: ['laps.change_lap'] });
    const { user, card } = await customer();
    const { checkout, intent } = await chargedAtStripeOnly(user, card);
    const paid = event('payment_intent.succeeded', intent);
    await deliver(paid);
    await handled(paid.id);
    const [booking] = await t.db
      .select()
      .from(reservations)
      .where(eq(reservations.checkoutId, checkout.id));
    const [recorded] = (await checkoutState(checkout.id)).recorded;

    const dispute = {
      id: `dp_${checkout.id}`,
      object: 'dispute',
      amount: 3000,
      currency: 'usd',
      reason: 'fraudulent',
      status: 'needs_response',
      charge: 'ch_1',
      payment_intent: intent.id,
    };
    const opened = event('charge.dispute.created', dispute);
    await deliver(opened);
    await handled(opened.id);
    const flag = () =>
      t.db.select().from(paymentDisputes).where(eq(paymentDisputes.disputeRef, dispute.id));
    expect(await flag()).toMatchObject([
      { chargeId: recorded.id, userId: user.id, status: 'needs_response', closedAt: null },
    ]);
    const [mail] = await sentMails(t, money.email);
    expect(mail.subject).toBe('Payment disputed: $30.00 by Nigel Mansell <' + user.email + '>');
    expect(mail.text).toContain(`Bookings: #${booking.id}`);
    expect(mail.text).toContain(`https://dashboard.stripe.com/disputes/${dispute.id}`);
    expect(await sentMails(t, other.email)).toEqual([]);
    // The flag on the customer's admin page.
    const viewer = await createUser(t, { isStaff: true, permissions: ['user.view_user'] });
    const flags = await t.app.inject({
      method: 'GET',
      url: `/api/users/${user.id}/disputes`,
      headers: bearer(viewer.token),
    });
    expect(flags.json()).toEqual([
      {
        id: expect.any(Number),
        dispute_ref: dispute.id,
        charge: recorded.id,
        amount_cents: 3000,
        currency: 'USD',
        reason: 'fraudulent',
        status: 'needs_response',
        open: true,
        reservations: [booking.id],
        opened: expect.any(String),
        closed: null,
      },
    ]);

    const closed = event('charge.dispute.closed', { ...dispute, status: 'lost' });
    await deliver(closed);
    await handled(closed.id);
    const replay = event('charge.dispute.closed', { ...dispute, status: 'lost' });
    await deliver(replay);
    await handled(replay.id);
    expect(await flag()).toMatchObject([{ status: 'lost', closedAt: expect.any(Date) }]);
    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.subjectUserId, user.id),
          inArray(auditEvents.action, ['payment.dispute_opened', 'payment.dispute_closed']),
        ),
      );
    expect(trail.map((a) => [a.action, a.targetId, a.actorId])).toEqual([
      ['payment.dispute_opened', recorded.id, null],
      ['payment.dispute_closed', recorded.id, null],
    ]);
    expect(trail[1].after).toMatchObject({ status: 'lost', reservations: [booking.id] });
    expect((await sentMails(t, money.email)).map((m) => m.subject)).toEqual([
      mail.subject,
      `Dispute closed (lost): $30.00 by Nigel Mansell <${user.email}>`,
    ]);
  });
});

describe('without Stripe', () => {
  it('answers 404: the local provider has no webhook', async () => {
    const local = await createTestApp();
    try {
      const res = await local.app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
        payload: '{}',
      });
      expect([res.statusCode, res.json()]).toEqual([
        404,
        { detail: 'Stripe webhooks are not configured on this server.' },
      ]);
    } finally {
      await local.close();
    }
  });
});
