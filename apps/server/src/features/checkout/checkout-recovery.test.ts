import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { reservations } from '../../db/schema/booking';
import { charges, localCharges } from '../../db/schema/payments';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import { userPost } from '../../test/requests';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { createVenue, futureDate } from '../../test/booking-factories';
import { claimOnly } from '../../test/claimed-checkout';
import { repairCheckouts } from './money-repair';

// A checkout's steps commit one by one (the claim, the charge, the finish; decision 0094): a
// process that dies between them leaves a checkout `charging`, and the next call finishes it
// with one charge.

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
const zone = 'America/Los_Angeles';
const day = futureDate(6, zone);

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 2, costCents: 3000 });
});
afterAll(() => t.close());

const post = userPost(() => t);

/** A quoted one-seat checkout, then the first step of its processing, as if it died there. */
async function claimedThenCrashed(user: CreatedUser, hhmm: string) {
  const q = await post(user, '/api/reservations/checkouts/quote', {
    reservations: [{ calendar: venue.seats[0].id, slot: `${day}T${hhmm}` }],
  });
  expect(q.statusCode).toBe(200);
  return claimOnly(t, user, q.json().checkout_id);
}

const chargesOf = async (id: number) => ({
  recorded: await t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${id}`)),
  atProvider: await t.db
    .select()
    .from(localCharges)
    .where(like(localCharges.idempotencyKey, `%:checkout-${id}`)),
});

describe('a checkout processing that died half-way', () => {
  it('before the charge: the next call charges once and books the seat paid', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const checkout = await claimedThenCrashed(user, '18:00');
    const res = await post(user, `/api/reservations/checkouts/${checkout.id}/process`);
    expect(res.statusCode).toBe(200);
    expect(res.json().reservations).toHaveLength(1);
    expect(res.json().reservations[0].paid).toBe(true);
    const { recorded, atProvider } = await chargesOf(checkout.id);
    expect(recorded).toHaveLength(1);
    expect(atProvider).toHaveLength(1);
  });

  it('before the charge: the retry and two repairs at once charge once, one answer', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const checkout = await claimedThenCrashed(user, '19:00');
    const ctx = {
      db: t.db,
      payments: t.deps.payments,
      mailer: t.deps.mailer,
      receipts: { wake: () => {} },
      publicUrl: t.deps.config.publicUrl,
      logError: (error: unknown) => {
        throw error;
      },
    };
    const [res, a, b] = await Promise.all([
      post(user, `/api/reservations/checkouts/${checkout.id}/process`),
      repairCheckouts(ctx, { afterMs: 0 }),
      repairCheckouts(ctx, { afterMs: 0 }),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().reservations.map((r: { paid: boolean }) => r.paid)).toEqual([true]);
    expect(a.finished + b.finished).toBeLessThanOrEqual(1);
    const { recorded, atProvider } = await chargesOf(checkout.id);
    expect(recorded).toHaveLength(1);
    expect(atProvider).toHaveLength(1);
    const again = await post(user, `/api/reservations/checkouts/${checkout.id}/process`);
    expect(again.body).toBe(res.body);
  });

  it('after the charge: the next call records no second charge', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const checkout = await claimedThenCrashed(user, '18:30');
    const charged = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: checkout.amounts.totalCents,
      currency: 'USD',
      notes: 'crashed right after this',
      idempotencyKey: `checkout-${checkout.id}`,
      kind: 'booking',
    });
    expect(charged.ok).toBe(true);
    const res = await post(user, `/api/reservations/checkouts/${checkout.id}/process`);
    expect(res.statusCode).toBe(200);
    const again = await post(user, `/api/reservations/checkouts/${checkout.id}/process`);
    expect(again.body).toBe(res.body);
    const { recorded, atProvider } = await chargesOf(checkout.id);
    expect(recorded).toHaveLength(1);
    expect(atProvider).toHaveLength(1);
    const rows = await t.db
      .select()
      .from(reservations)
      .where(eq(reservations.checkoutId, checkout.id));
    expect(rows.map((r) => [r.paid, r.chargeId])).toEqual([[true, recorded[0].id]]);
  });
});
