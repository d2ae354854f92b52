import {
  NO_CARD_FOR_CLUB_MESSAGE,
  type CreditsEnrollAnswer,
  type CreditsQuote,
  type CreditsUnenrollAnswer,
  type Subscription,
} from '@paddock/contract/club';
import { formatMoney } from '@paddock/contract/money';
import { sendClubReceipt, type ClubMail } from './club-mail';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../plugins/auth';
import { addCredits, creditBalance, expireCredits } from '../../plugins/club-membership';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import { AUTHENTICATION_HOLD_MS, type PaymentProvider } from '../../plugins/payments/provider';
import { getSettings } from '../../plugins/settings';
import { crashAt, type CrashPoint } from '../../lib/crash-point';
import { dayOfMonth, localDate, nextCycleDate } from './billing-cycle';
import { clubTerms, creditsProblem, quoteCredits, sessionsFor, type ClubTerms } from './club-terms';
import * as repo from './club.repo';
import { accessibleUserId } from '../../plugins/user-access';
import { sendCardRefund } from '../refunds/card-refunds';
import { waitingCreditsToCard } from '../refunds/waiting-credits';

export type ClubContext = {
  db: Db;
  payments: PaymentProvider;
  mail?: ClubMail;
  /** Where a joining member's 3-D Secure challenge returns to (decision 0095). */
  publicUrl: string;
  /** The crash test's step to die at (decision 0072; CHECKOUT_CRASH_AT). */
  crashAt?: CrashPoint;
};

/** The web page the bank's challenge returns a joining member to; it asks to complete. */
export const enrolmentReturnUrl = (publicUrl: string, membershipId: number) =>
  `${publicUrl}/subscriptions/${membershipId}/authenticated`;

/** The dashboard the bank's challenge returns a cancelling member to; it cancels again. */
export const cancellationReturnUrl = (publicUrl: string) =>
  `${publicUrl}/dashboard?cancel=authenticated`;

/** Cancelling before this many paid cycles charges back the discounts given (the terms). */
export const MINIMUM_PAID_CYCLES = 2;

async function terms(db: Db): Promise<ClubTerms> {
  return clubTerms(await getSettings(db));
}

function assertEnabled(club: ClubTerms) {
  if (!club.enabled) throw ValidationError.nonField(`The ${club.name} is not available.`);
}

/**
 * Whose club `/users/{id}/…` means: one's own (`me` or one's id), or, for staff with
 * user.change_user, another user's. Anyone else gets the 404 an unknown user gets.
 */
export async function clubUserId(db: Db, caller: AuthUser, id: 'me' | number): Promise<number> {
  return accessibleUserId(db, caller, id, ['user.change_user']);
}

export async function creditsPurchaseQuote(db: Db, credits: number): Promise<CreditsQuote> {
  const club = await terms(db);
  assertEnabled(club);
  const problem = creditsProblem(credits, club);
  if (problem) throw ValidationError.field('credits', problem);
  const quote = quoteCredits(credits, club);
  return {
    quoted_cents: quote.quotedCents,
    discount_percent: quote.discountPercent,
    total_cents: quote.totalCents,
    first_charge_cents: quote.firstChargeCents,
  };
}

/** The API view of a membership, with what the user's balance books. */
/** What cancelling now charges back: the discounts given, within two paid cycles (the terms). */
export function chargeBackOf(row: Pick<repo.MembershipRow, 'cyclesPaid' | 'discountsGivenCents'>) {
  return row.cyclesPaid < MINIMUM_PAID_CYCLES ? row.discountsGivenCents : 0;
}

export function subscriptionView(
  row: repo.MembershipRow,
  balance: number,
  club: ClubTerms,
): Subscription {
  const status = row.status === 'pending' ? 'active' : row.status;
  // A renewal that is still unpaid blocks spending until the card goes through.
  const now = status === 'active' ? sessionsFor(balance, club) : 0;
  const live = status !== 'cancelled';
  return {
    id: row.id,
    name: club.name,
    status,
    good_standing: status === 'active',
    cancelable: live,
    credits_per_month: row.creditsPerMonth,
    price_cents: row.priceCents,
    discount_percent: row.discountPercent,
    cycle_day_of_month: row.cycleDay,
    next_charge_on: row.nextChargeOn,
    started_at: row.startedAt.toISOString(),
    cycles_paid: row.cyclesPaid,
    cancel_charge_back_cents: live ? chargeBackOf(row) : 0,
    credits_balance: balance,
    reservations_remaining: now,
    reservations_remaining_this_month: now,
    reservations_remaining_next_month: live ? sessionsFor(balance + row.creditsPerMonth, club) : 0,
  };
}

export async function listSubscriptions(
  db: Db,
  userId: number,
  query: PaginationQuery,
): Promise<Paginated<Subscription>> {
  const club = await terms(db);
  const balance = await creditBalance(db, userId);
  return paginate(
    query,
    () => repo.countMemberships(db, userId),
    async (limit, offset) =>
      (await repo.pageOfMemberships(db, userId, limit, offset)).map((row) =>
        subscriptionView(row, balance, club),
      ),
  );
}

const planNotes = (club: ClubTerms, credits: number, what: string) =>
  `${club.name}: ${credits / club.creditsPerSession} sessions per month (${credits} credits), ${what}`;

/**
 * Joins the club: a pending membership is written first (the partial unique index lets one
 * enrolment per user through), the first month is charged with the key `club-{id}-{date}`, then
 * the membership becomes active and the credits land, or, declined, the membership is removed.
 * A repeated or racing call finds the pending row and repeats the charge with the same key, which
 * the payment layer answers without charging again. `present`: the member is on the page (not
 * staff enrolling them), so a bank asking for 3-D Secure answers the challenge and the
 * membership stays pending until a repeated call (or the webhook) finds how it ended.
 */
export async function enroll(
  ctx: ClubContext,
  userId: number,
  creditsAmount: number,
  now = new Date(),
  present = false,
): Promise<CreditsEnrollAnswer> {
  const { db } = ctx;
  const club = await terms(db);
  assertEnabled(club);
  const problem = creditsProblem(creditsAmount, club);
  if (problem) throw ValidationError.field('credits_amount', problem);
  const alreadyMember = () =>
    ValidationError.nonField(`You are already a member of the ${club.name}.`);

  let membership = await repo.findLiveMembership(db, userId);
  if (membership && membership.status !== 'pending') throw alreadyMember();
  if (!(await repo.hasCard(db, userId, ctx.payments.kind)))
    throw ValidationError.nonField(NO_CARD_FOR_CLUB_MESSAGE);

  if (!membership) {
    const today = localDate(now, await repo.venueTimezone(db));
    const quote = quoteCredits(creditsAmount, club);
    membership =
      (await repo.insertPendingMembership(db, {
        userId,
        creditsPerMonth: creditsAmount,
        fullPriceCents: quote.quotedCents,
        priceCents: quote.totalCents,
        discountPercent: club.discountPercent,
        cycleDay: dayOfMonth(today),
        nextChargeOn: today,
        startedAt: now,
      })) ?? (await repo.findLiveMembership(db, userId));
    if (!membership) throw new Error('membership vanished after an enrolment conflict');
    if (membership.status !== 'pending') throw alreadyMember();
  }
  return finishEnrolment(ctx, club, membership, present);
}

/**
 * The webhook's way in (`payment_intent.succeeded` / `payment_failed` with the key
 * `club-{id}-{date}`): a membership still pending is finished as its first charge ended, once.
 */
export async function settleEnrolment(ctx: ClubContext, membershipId: number) {
  const membership = await repo.findMembership(ctx.db, membershipId);
  if (membership?.status !== 'pending') return null;
  try {
    return await finishEnrolment(ctx, await terms(ctx.db), membership, true);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

/**
 * The member back from the bank's challenge (`POST /users/me/subscriptions/{id}/complete`):
 * a membership still pending is finished as its first charge ended; one the webhook finished
 * meanwhile answers the same welcome; one removed after a failed challenge answers the bank's
 * message, as the first answer would have.
 */
export async function completeEnrolment(
  ctx: ClubContext,
  userId: number,
  membershipId: number,
): Promise<CreditsEnrollAnswer> {
  const club = await terms(ctx.db);
  const membership = await repo.findMembership(ctx.db, membershipId);
  if (membership?.userId === userId) {
    if (membership.status === 'pending') return finishEnrolment(ctx, club, membership, true);
    const balance = await creditBalance(ctx.db, userId);
    return {
      detail: `Welcome to the ${club.name}!`,
      credits_balance: balance,
      subscription: subscriptionView(membership, balance, club),
    };
  }
  const failed = await repo.lastEnrolmentCharge(ctx.db, userId, membershipId);
  if (failed?.errors) throw ValidationError.nonField(failed.errors);
  throw new NotFound();
}

async function finishEnrolment(
  ctx: ClubContext,
  club: ClubTerms,
  membership: repo.MembershipRow,
  present: boolean,
): Promise<CreditsEnrollAnswer> {
  const { db } = ctx;
  const userId = membership.userId;
  const amountCents = quoteCredits(membership.creditsPerMonth, club).firstChargeCents;
  const outcome = await chargeSavedCard(
    db,
    ctx.payments,
    {
      userId,
      amountCents,
      currency: club.currency,
      notes: planNotes(club, membership.creditsPerMonth, 'first month'),
      idempotencyKey: `club-${membership.id}-${membership.nextChargeOn}`,
      kind: 'club',
    },
    present
      ? {
          onSession: {
            returnUrl: enrolmentReturnUrl(ctx.publicUrl, membership.id),
          },
        }
      : {},
  );
  if (outcome.charge === null)
    return {
      status: 'requires_action',
      client_secret: outcome.action.clientSecret,
      challenge_url: outcome.action.challengeUrl,
    };

  if (outcome.ok) crashAt(ctx.crashAt, 'charged');
  const pendingId = membership.id;
  // Only the call that activates it sends the welcome (the web's return and the webhook race).
  const finished = await db.transaction(async (tx) => {
    const row = await repo.lockMembership(tx, pendingId);
    if (!row) return null; // a racing call saw the decline and removed it
    if (row.status !== 'pending') return { row, activatedNow: false };
    if (!outcome.ok) {
      await repo.deleteMembership(tx, row.id);
      return null;
    }
    const active = await repo.updateMembership(tx, row.id, {
      status: 'active',
      cyclesPaid: 1,
      discountsGivenCents: Math.max(0, row.fullPriceCents - amountCents),
      nextChargeOn: nextCycleDate(row.cycleDay, row.nextChargeOn),
      failedAttempts: 0,
    });
    await addCredits(tx, {
      userId,
      credits: row.creditsPerMonth,
      reason: 'enrolment',
      membershipId: row.id,
      chargeId: outcome.charge.id,
    });
    return { row: active, activatedNow: true };
  });
  if (!outcome.ok) throw ValidationError.nonField(outcome.message);
  if (!finished) throw new Error('enrolment finished without a membership');
  if (finished.activatedNow)
    await sendClubReceipt(db, ctx.mail, userId, {
      kind: 'enrolment',
      clubName: club.name,
      amountCents,
      currency: club.currency,
      detail: planNotes(club, finished.row.creditsPerMonth, 'first month'),
    });
  const balance = await creditBalance(db, userId);
  return {
    detail: `Welcome to the ${club.name}!`,
    credits_balance: balance,
    subscription: subscriptionView(finished.row, balance, club),
  };
}

/**
 * Cancels the membership (active or past due). Within two paid cycles the discounts given are
 * charged back first, as the terms say; a declined charge-back leaves the membership as it was
 * and answers the provider's message (the next try uses a new key: a decline is final for its
 * key). The unspent credits go with the membership: redeeming them needs good standing.
 * `present`: the member is on the page (decision 0100), so a bank asking for 3-D Secure answers
 * the challenge, the membership unchanged, and the same call afterwards (or the webhook, or the
 * money repair: `onlyKey`) finishes it as the charge-back ended, once, under the row lock.
 */
export async function unenroll(
  ctx: ClubContext,
  userId: number,
  now = new Date(),
  present = false,
  onlyKey?: string,
): Promise<CreditsUnenrollAnswer> {
  const { db } = ctx;
  const club = await terms(db);
  const result = await db.transaction(async (tx) => {
    const row = await repo.lockMembershipOf(tx, userId);
    if (!row) {
      // The member back from a challenge the webhook finished first: the same answer again.
      const since = new Date(now.getTime() - AUTHENTICATION_HOLD_MS);
      const done =
        present && onlyKey === undefined
          ? await repo.challengedCancellation(tx, userId, since)
          : null;
      if (done) return { chargeBackCents: done.amountCents, toCard: [], repeat: true };
      return { error: `You have no ${club.name} membership to cancel.` };
    }
    const chargeBackCents = chargeBackOf(row);
    const idempotencyKey = `club-${row.id}-chargeback-${row.chargebackFailures}`;
    if (onlyKey !== undefined && (onlyKey !== idempotencyKey || chargeBackCents === 0))
      return { error: 'not this charge-back' };
    if (chargeBackCents > 0) {
      // Inside the transaction: the row lock makes a double click wait, then find it cancelled.
      const outcome = await chargeSavedCard(
        tx,
        ctx.payments,
        {
          userId,
          amountCents: chargeBackCents,
          currency: club.currency,
          notes: `${club.name}: cancelled within two billing cycles, discounts charged back`,
          idempotencyKey,
          kind: 'club',
        },
        present ? { onSession: { returnUrl: cancellationReturnUrl(ctx.publicUrl) } } : {},
      );
      if (outcome.charge === null)
        return {
          action: {
            status: 'requires_action' as const,
            client_secret: outcome.action.clientSecret,
            challenge_url: outcome.action.challengeUrl,
          },
        };
      if (!outcome.ok) {
        // The webhook or the repair records the failure under its key; the member's own next
        // call reads it once (one message), and only then does a new attempt get a new key.
        if (onlyKey === undefined)
          await repo.updateMembership(tx, row.id, {
            chargebackFailures: row.chargebackFailures + 1,
          });
        return { error: outcome.message };
      }
    }
    await repo.updateMembership(tx, row.id, { status: 'cancelled', cancelledAt: now });
    await expireCredits(tx, { userId, reason: 'cancellation', membershipId: row.id });
    // Refunded credits still waiting for good standing go back to the card instead.
    const toCard = await waitingCreditsToCard(tx, userId);
    return { chargeBackCents, toCard, repeat: false };
  });
  if (result.action) return result.action;
  if (result.error !== undefined) throw ValidationError.nonField(result.error);
  for (const id of result.toCard) await sendCardRefund(ctx, id);
  if (result.chargeBackCents > 0 && !result.repeat)
    await sendClubReceipt(db, ctx.mail, userId, {
      kind: 'chargeback',
      clubName: club.name,
      amountCents: result.chargeBackCents,
      currency: club.currency,
      detail: `Your ${club.name} membership is cancelled within two billing cycles, so the discounts given are charged back, as the terms say.`,
    });
  const detail =
    result.chargeBackCents > 0
      ? `Your ${club.name} membership is cancelled. The discounts given, ${formatMoney(result.chargeBackCents, club.currency)}, were charged back.`
      : `Your ${club.name} membership is cancelled.`;
  return { detail, charge_back_cents: result.chargeBackCents };
}

/**
 * The webhook's and the money repair's way in (key `club-{id}-chargeback-{n}`): a membership
 * whose cancellation waits on that charge-back is cancelled, or kept, as it ended; once.
 */
export async function settleCancellation(ctx: ClubContext, key: string) {
  const membershipId = Number(/^club-(\d+)-chargeback-\d+$/.exec(key)?.[1]);
  if (!Number.isSafeInteger(membershipId)) return null;
  const membership = await repo.findMembership(ctx.db, membershipId);
  if (!membership) return null;
  try {
    return await unenroll(ctx, membership.userId, new Date(), true, key);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}
