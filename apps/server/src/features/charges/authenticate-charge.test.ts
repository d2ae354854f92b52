import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { clubMemberships } from '../../db/schema/club';
import { charges, localCharges } from '../../db/schema/payments';
import { AUTHENTICATION_REQUIRED_MESSAGE } from '../../plugins/payments/provider';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { answerChallenge, saveTestCard } from '../../test/cards';
import { sentMail } from '../../test/sent-mail';
import { clubMember } from '../../test/club-member';
import { runRenewals } from '../club/renewals';

// A club renewal charged without the customer whose bank wants 3-D Secure (decision 0085): the
// member is not in good standing, is e-mailed a link, and completes the payment there, once.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const noonLA = (isoDate: string) => new Date(`${isoDate}T20:00:00Z`);
const deps = () => ({
  db: t.db,
  payments: t.deps.payments,
  mail: {
    mailer: t.deps.mailer,
    publicUrl: t.deps.config.publicUrl,
    logError: (error: unknown) => {
      throw error;
    },
  },
});
const membershipOf = async (user: CreatedUser) =>
  (await t.db.select().from(clubMemberships).where(eq(clubMemberships.userId, user.id)))[0];
const userView = async (user: CreatedUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(user.token) })).json();
const authenticate = (user: CreatedUser, id: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/me/charges/${id}/authenticate`,
    headers: bearer(user.token),
  });

/** A member (enrolled with 4242) whose card is now one that always asks (4000 0027 6000 3184). */
async function memberWithThreeDsCard(nextChargeOn: string) {
  const { user } = await clubMember(t);
  await t.db
    .update(clubMemberships)
    .set({ cycleDay: 15, nextChargeOn })
    .where(eq(clubMemberships.userId, user.id));
  await saveTestCard(t, user, '4000002760003184');
  return user;
}

describe('a renewal that needs authentication', () => {
  it('is not in good standing, e-mails the link, and is completed from it exactly once', async () => {
    const user = await memberWithThreeDsCard('2027-05-15');
    await runRenewals(deps(), noonLA('2027-05-15'));
    const m = await membershipOf(user);
    expect(m).toMatchObject({ status: 'past_due', nextChargeOn: '2027-05-15' });
    expect((await userView(user)).credits_subscription_in_good_standing).toBe(false);
    const [renewal] = await t.db
      .select()
      .from(charges)
      .where(
        and(eq(charges.userId, user.id), eq(charges.idempotencyKey, `club-${m.id}-2027-05-15`)),
      );
    expect(renewal.errors).toBe(AUTHENTICATION_REQUIRED_MESSAGE);

    const mail = await sentMail(t, user.email, /renewal payment failed/);
    expect(mail.text).toContain('Your bank asks you to authenticate this payment');
    const link = `${t.deps.config.publicUrl}/charges/${renewal.id}/authenticate`;
    expect(mail.html).toContain(link);

    // Someone else's link is not theirs.
    const other = await createUser(t);
    expect((await authenticate(other, renewal.id)).statusCode).toBe(404);
    // Only renewals: finishing another charge (an outstanding balance) is not built.
    const [balance] = await t.db
      .insert(charges)
      .values({
        userId: user.id,
        amountCents: 2940,
        currency: 'USD',
        notes: 'Outstanding balance',
        kind: 'capture',
        idempotencyKey: `capture-test-${user.id}`,
        errors: AUTHENTICATION_REQUIRED_MESSAGE,
        chargeRef: renewal.chargeRef,
      })
      .returning();
    expect((await authenticate(user, balance.id)).statusCode).toBe(404);

    const first = await authenticate(user, renewal.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'requires_action', client_secret: null });
    const back = await answerChallenge(t, first.json().challenge_url, 'complete');
    expect(back).toBe(`${link}?payment_intent=${renewal.chargeRef}`);
    const credits = (await userView(user)).credits_balance;
    const [paid, again] = await Promise.all([
      authenticate(user, renewal.id),
      authenticate(user, renewal.id),
    ]);
    expect(paid.json()).toEqual({ status: 'paid', client_secret: null, challenge_url: null });
    expect(again.json()).toEqual(paid.json());

    expect(await membershipOf(user)).toMatchObject({
      status: 'active',
      nextChargeOn: '2027-06-15',
      failedAttempts: 0,
    });
    const view = await userView(user);
    expect(view.credits_subscription_in_good_standing).toBe(true);
    expect(view.credits_balance).toBe(credits + 1000);
    const [row] = await t.db.select().from(charges).where(eq(charges.id, renewal.id));
    expect(row.errors).toBe('');
    const atProvider = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.id, renewal.chargeRef!));
    expect(atProvider.map((c) => c.status)).toEqual(['succeeded']);
  });

  it('a failed challenge leaves it unpaid and not in good standing', async () => {
    const user = await memberWithThreeDsCard('2027-05-15');
    await runRenewals(deps(), noonLA('2027-05-15'));
    const [renewal] = await t.db
      .select()
      .from(charges)
      .where(and(eq(charges.userId, user.id), eq(charges.errors, AUTHENTICATION_REQUIRED_MESSAGE)));
    const first = await authenticate(user, renewal.id);
    await answerChallenge(t, first.json().challenge_url, 'fail');
    const failed = await authenticate(user, renewal.id);
    expect(failed.statusCode).toBe(402);
    expect((await membershipOf(user)).status).toBe('past_due');
  });
});
