import { and, eq, isNull, lt, ne, notExists } from 'drizzle-orm';
import { reservations } from '../../db/schema/booking';
import { charges, paymentChallenges } from '../../db/schema/payments';
import {
  chargeSavedCard,
  type ChargeKind,
  type ChargeRecord,
} from '../../plugins/payments/charge-card';
import { AUTHENTICATION_HOLD_MS } from '../../plugins/payments/provider';
import { refundInFull } from '../../plugins/payments/refund-in-full';
import { settleByKey, type SettleContext } from './settle-by-key';

/** A pass takes this many at most; the next pass (a minute later) takes the rest. */
const PASS_LIMIT = 200;

type Challenge = typeof paymentChallenges.$inferSelect;

/**
 * Cancels at the provider every on-session challenge (voucher purchase, enrolment, cancellation
 * charge-back, outstanding balance; a checkout's is its own, release-checkout.ts) that nobody
 * finished within AUTHENTICATION_HOLD_MS, marks it released, and lets what waited on it end as
 * the provider then says (decision 0100): failed with nothing charged, or, the challenge passed
 * just before, paid. A charge that passed but that nothing waits on any more (an outstanding
 * balance changed meanwhile) is refunded in full. Answers how many it released.
 */
export async function releaseStaleChallenges(ctx: SettleContext, now = new Date()) {
  const stale = await ctx.db
    .select()
    .from(paymentChallenges)
    .where(
      and(
        isNull(paymentChallenges.releasedAt),
        ne(paymentChallenges.kind, 'booking'),
        lt(paymentChallenges.createdAt, new Date(now.getTime() - AUTHENTICATION_HOLD_MS)),
        notExists(
          ctx.db
            .select({ id: charges.id })
            .from(charges)
            .where(eq(charges.idempotencyKey, paymentChallenges.idempotencyKey)),
        ),
      ),
    )
    .orderBy(paymentChallenges.id)
    .limit(PASS_LIMIT);
  let released = 0;
  for (const challenge of stale) {
    try {
      await releaseChallenge(ctx, challenge, now);
      released += 1;
    } catch (error) {
      // The provider unreachable: the challenge stays open for the next pass.
      ctx.logError(error, `money repair could not release challenge ${challenge.idempotencyKey}`);
    }
  }
  return released;
}

/** The customer's challenges still open (no charge under their key yet); `kind` narrows them. */
export function openChallengesOf(
  ctx: Pick<SettleContext, 'db'>,
  userId: number,
  kind?: Challenge['kind'],
) {
  return ctx.db
    .select()
    .from(paymentChallenges)
    .where(
      and(
        eq(paymentChallenges.userId, userId),
        kind === undefined ? undefined : eq(paymentChallenges.kind, kind),
        isNull(paymentChallenges.releasedAt),
        notExists(
          ctx.db
            .select({ id: charges.id })
            .from(charges)
            .where(eq(charges.idempotencyKey, paymentChallenges.idempotencyKey)),
        ),
      ),
    );
}

/** The customer's outstanding-balance challenges still open. */
export const openBalanceChallenges = (ctx: Pick<SettleContext, 'db'>, userId: number) =>
  openChallengesOf(ctx, userId, 'capture');

/**
 * Stops the customer's open balance challenges before one of the balance's bookings changes
 * (issue 40, decision 0114): each is released as the repair releases an abandoned one, so the
 * old total cannot be taken afterwards; one that passed just before ends paid, and the change
 * then works on a paid booking.
 */
export async function stopOpenBalanceChallenges(ctx: SettleContext, userId: number) {
  const open = await openBalanceChallenges(ctx, userId);
  for (const challenge of open) await releaseChallenge(ctx, challenge, new Date());
  return open.length;
}

/**
 * Cancels one challenge at the provider, ends what waited on it as the provider then says, marks
 * it released and records the provider's end under its key (a stray charge refunded in full).
 */
export async function releaseChallenge(ctx: SettleContext, challenge: Challenge, now: Date) {
  await ctx.payments.cancelAuthentication(challenge.intentRef);
  // What waited ends as the provider now says (failed; or paid, passed just before the cancel).
  await settleByKey(ctx, challenge.idempotencyKey);
  await ctx.db
    .update(paymentChallenges)
    .set({ releasedAt: now })
    .where(eq(paymentChallenges.id, challenge.id));
  if (challenge.userId === null) return;
  // Whatever waited may be gone (a balance changed): the provider's end is recorded anyway.
  const ended = await chargeSavedCard(
    ctx.db,
    ctx.payments,
    {
      userId: challenge.userId,
      amountCents: challenge.amountCents,
      currency: challenge.currency,
      notes: challenge.notes,
      idempotencyKey: challenge.idempotencyKey,
      kind: challenge.kind as ChargeKind,
    },
    { onSession: { returnUrl: ctx.publicUrl } },
  );
  if (ended.charge?.errors === '' && !(await paysSomething(ctx, ended.charge)))
    await refundStray(ctx, ended.charge);
}

/** An outstanding balance's charge pays its reservations; every other kind's settle used it. */
async function paysSomething(ctx: SettleContext, charge: ChargeRecord) {
  if (charge.kind !== 'capture') return true;
  const [paid] = await ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .where(eq(reservations.chargeId, charge.id))
    .limit(1);
  return paid !== undefined;
}

/** Gives a charge nothing holds back in full, recorded as a refund line (decision 0100). */
async function refundStray(ctx: SettleContext, charge: ChargeRecord) {
  const ok = await refundInFull(
    ctx.db,
    ctx.payments,
    charge,
    `Refund of charge #${charge.id}: its payment was authenticated after what it paid for changed`,
  );
  if (!ok) ctx.logError(new Error('refund declined'), `stray charge ${charge.id} not refunded`);
}
