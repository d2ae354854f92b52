import { DateTime } from 'luxon';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import { runJob } from '../../lib/job-run';
import type { Db } from '../../db/client';
import { addCredits } from '../../plugins/club-membership';
import { releaseWaitingCredits } from '../refunds/waiting-credits';
import { chargeSavedCard, needsAuthentication } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { getSettings } from '../../plugins/settings';
import { localDate, nextCycleDate } from './billing-cycle';
import { clubTerms, type ClubTerms } from './club-terms';
import * as repo from './club.repo';
import type { MembershipRow } from './club.repo';
import type { Queryable } from '../../plugins/payments/charge-card';
import { sendClubReceipt, type ClubMail, type ClubReceipt } from './club-mail';

export type RenewalDeps = { db: Db; payments: PaymentProvider; mail?: ClubMail };
export type RenewalReport = { charged: number; declined: number; skipped: number };

/**
 * Charges every membership due today (venue-local) for one cycle, adds its credits and moves
 * the next charge to the following month's cycle day. A declined renewal marks the member past
 * due (not in good standing) and is tried again on each following day until it goes through or
 * the member cancels. Meanwhile missed cycles are caught up one per run.
 *
 * Safe with any number of app instances running it at once: each membership is renewed in its
 * own transaction under a row lock (FOR UPDATE SKIP LOCKED, the due test repeated under the
 * lock), and its charge carries the key `club-{membershipId}-{cycle date}` (a retry after a
 * decline adds `-retry{n}`), so a cycle is charged once even if a crash lost the first answer.
 * While the club is disabled in settings nothing is renewed.
 */
export async function runRenewals(deps: RenewalDeps, now = new Date()): Promise<RenewalReport> {
  const report: RenewalReport = { charged: 0, declined: 0, skipped: 0 };
  const club = clubTerms(await getSettings(deps.db));
  if (!club.enabled) return report;
  const today = localDate(now, await repo.venueTimezone(deps.db));
  for (const id of await repo.dueMembershipIds(deps.db, today)) {
    const outcome = await renewOne(deps, club, id, today);
    report[outcome] += 1;
  }
  return report;
}

async function renewOne(
  deps: RenewalDeps,
  club: ClubTerms,
  id: number,
  today: string,
): Promise<keyof RenewalReport> {
  let receipt: (ClubReceipt & { userId: number }) | null = null;
  const result = await deps.db.transaction(async (tx) => {
    receipt = null;
    const row = await repo.lockDueMembership(tx, id, today);
    if (!row) return 'skipped';
    const cycle = row.nextChargeOn;
    const month = DateTime.fromISO(cycle).toFormat('LLLL yyyy');
    const outcome = await chargeSavedCard(tx, deps.payments, {
      userId: row.userId,
      amountCents: row.priceCents,
      currency: club.currency,
      notes: `${club.name}: ${month} (${row.creditsPerMonth} credits)`,
      idempotencyKey:
        row.failedAttempts === 0
          ? `club-${row.id}-${cycle}`
          : `club-${row.id}-${cycle}-retry${row.failedAttempts}`,
      kind: 'club',
    });
    const notes = `${club.name}: ${month} (${row.creditsPerMonth} credits)`;
    receipt = {
      userId: row.userId,
      kind: outcome.ok ? 'renewal' : 'renewal_failed',
      clubName: club.name,
      amountCents: row.priceCents,
      currency: club.currency,
      detail: outcome.ok ? notes : outcome.message,
      authenticateChargeId:
        !outcome.ok && needsAuthentication(outcome.charge) ? outcome.charge.id : null,
    };
    if (!outcome.ok) {
      await repo.updateMembership(tx, row.id, {
        status: 'past_due',
        failedAttempts: row.failedAttempts + 1,
        lastAttemptOn: today,
      });
      return 'declined';
    }
    await applyRenewal(tx, row, outcome.charge.id);
    return 'charged';
  });
  // After the commit: a receipt never tells of a renewal that rolled back.
  const sent = receipt as (ClubReceipt & { userId: number }) | null;
  if (sent) await sendClubReceipt(deps.db, deps.mail, sent.userId, sent);
  return result;
}

/**
 * A cycle paid (by the renewal, or later by the customer authenticating its payment): the
 * member is in good standing again, the next charge moves a month on and the credits land.
 */
export async function applyRenewal(tx: Queryable, row: MembershipRow, chargeId: number) {
  await repo.updateMembership(tx, row.id, {
    status: 'active',
    cyclesPaid: row.cyclesPaid + 1,
    discountsGivenCents: row.discountsGivenCents + Math.max(0, row.fullPriceCents - row.priceCents),
    nextChargeOn: nextCycleDate(row.cycleDay, row.nextChargeOn),
    failedAttempts: 0,
    lastAttemptOn: null,
  });
  await addCredits(tx, {
    userId: row.userId,
    credits: row.creditsPerMonth,
    reason: 'renewal',
    membershipId: row.id,
    chargeId,
  });
  // Back in good standing: refunded credits that waited for it land now.
  await releaseWaitingCredits(tx, row.userId);
}

/**
 * Runs the renewals every hour (and once at start); each member is charged at most once a
 * day whatever the schedule. Started by main.ts only, never in tests (they call runRenewals).
 */
export function startRenewalJob(deps: RenewalDeps, log: FastifyBaseLogger): { stop: () => void } {
  const pass = () => runJob(log, 'club renewals', () => runRenewals(deps));
  const job = new Cron('17 * * * *', { protect: true }, pass);
  void job.trigger();
  return { stop: () => job.stop() };
}
