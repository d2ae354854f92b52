import crypto from 'node:crypto';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import {
  CLEARED_OUTSTANDING_MESSAGE,
  OUTSTANDING_PAID_MESSAGE,
  type Balance,
  type CostBreakdown,
  type CaptureOutstandingAction,
  type CaptureOutstandingAnswer,
} from '@paddock/contract/reservations';
import { DEFAULT_CURRENCY, formatMoney } from '@paddock/contract/money';
import { users } from '../../db/schema/accounts';
import { receiptMail, venueOf, type ReceiptDeps } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';
import type { Db } from '../../db/client';
import { cards, paymentChallenges } from '../../db/schema/payments';
import { describeInZone, SLOT_MINUTES } from '../../lib/slots';
import { hasPermission, type AuthUser } from '../../plugins/auth';
import { Forbidden, NotFound, PaymentError } from '../../plugins/errors';
import {
  chargeSavedCard,
  type ChargeRecord,
  type Queryable,
} from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import * as repo from './reservations.repo';
import { accessibleUserId } from '../../plugins/user-access';
import { recordAudit } from '../audit/audit.service';

/**
 * The outstanding balance: live, unpaid, non-blackout reservations (a declined checkout, a
 * "Book It!" without payment). Staff can see it and mark it paid; the customer's card pays it.
 */

type UserRef = number | 'me';

async function resolveUser(db: Db, caller: AuthUser, ref: UserRef): Promise<number> {
  // Another customer's balance does not exist for a customer.
  return accessibleUserId(db, caller, ref, ['reservations.change_reservation']);
}

function describe(row: repo.ReservationRow): string {
  return `${row.calendarName}, ${describeInZone(row.time, row.timezone)}`;
}

export async function getBalance(db: Db, caller: AuthUser, ref: UserRef): Promise<Balance> {
  const rows = await repo.outstandingRows(db, await resolveUser(db, caller, ref));
  return {
    amount_cents: rows.reduce((sum, r) => sum + r.amountCents, 0),
    currency: rows[0]?.currency ?? DEFAULT_CURRENCY,
    detail: rows.map((r) => ({
      description: describe(r),
      amount_cents: r.amountCents,
      currency: r.currency,
    })),
  };
}

/**
 * The card cost lookup (staff spec §3 "Cost breakdown"): the outstanding reservations grouped by
 * seat and price, as the card capture would charge them.
 */
export async function getCostBreakdown(
  db: Db,
  caller: AuthUser,
  ref: UserRef,
): Promise<CostBreakdown> {
  const rows = await repo.outstandingRows(db, await resolveUser(db, caller, ref));
  const items = new Map<string, CostBreakdown['items'][number]>();
  for (const r of rows) {
    const description = `${r.calendarName} (${SLOT_MINUTES} min)`;
    const key = `${description}|${r.amountCents}`;
    const item = items.get(key) ?? { description, qty: 0, amount_each: r.amountCents, amount: 0 };
    item.qty += 1;
    item.amount += r.amountCents;
    items.set(key, item);
  }
  return {
    total: rows.reduce((sum, r) => sum + r.amountCents, 0),
    currency: rows[0]?.currency ?? DEFAULT_CURRENCY,
    items: [...items.values()],
  };
}

/** Staff holding both reservations.change_reservation and user.change_user. */
export async function clearOutstanding(
  db: Db,
  caller: AuthUser,
  userId: number,
): Promise<{ detail: string }> {
  if (
    !hasPermission(caller, 'reservations.change_reservation') ||
    !hasPermission(caller, 'user.change_user')
  )
    throw new Forbidden();
  if (!(await repo.userExists(db, userId))) throw new NotFound();
  await db.transaction(async (tx) => {
    const rows = await repo.outstandingRows(tx, userId);
    const ids = rows.map((r) => r.id);
    await repo.markPaid(tx, ids);
    if (ids.length)
      await recordAudit(tx, caller, {
        action: 'user.clear_outstanding',
        targetType: 'user',
        targetId: userId,
        subjectUserId: userId,
        before: { reservations: ids, amount_cents: rows.reduce((n, r) => n + r.amountCents, 0) },
        after: { paid: true },
      });
  });
  return { detail: CLEARED_OUTSTANDING_MESSAGE };
}

/** What capture_outstanding needs: the customer is on the page, so the bank may ask them. */
export type CaptureContext = { db: Db; payments: PaymentProvider; mail: ReceiptDeps };

/** The dashboard the bank's challenge returns to; it asks capture_outstanding again. */
export const outstandingReturnUrl = (publicUrl: string) =>
  `${publicUrl}/dashboard?outstanding=authenticated`;

type Captured = { charge: ChargeRecord; rows: repo.ReservationRow[] };
type CaptureEnd = {
  captured: Captured[];
  /** What this call marked paid (a webhook's key pays only its own currency's group). */
  paidCents: number;
  action?: CaptureOutstandingAction;
  error?: string;
};

/**
 * Charges the saved card for everything outstanding and marks it paid. The idempotency key is
 * derived from the exact reservations and the card, so a double click, a retry or the return
 * from the bank's challenge charges once, while a new card (after a decline) gets a fresh
 * attempt. The customer is present (decision 0099): a bank asking for 3-D Secure answers the
 * challenge, nothing marked paid; the same call afterwards (or the webhook, `onlyKey`) finds how
 * it ended. The user's row is locked throughout, so racing calls mark paid and mail once.
 */
export async function captureOutstanding(
  ctx: CaptureContext,
  userId: number,
  onlyKey?: string,
): Promise<CaptureOutstandingAnswer> {
  const end = await ctx.db.transaction(async (tx): Promise<CaptureEnd> => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const rows = await repo.outstandingRows(tx, userId);
    const captured: Captured[] = [];
    let paidCents = 0;
    const [card] = await tx
      .select({ ref: cards.paymentMethodRef })
      .from(cards)
      .where(eq(cards.userId, userId));
    const released = await releasedChallenges(tx, userId);
    // One charge per currency: a card payment is in one currency (docs/decisions/0039).
    for (const currency of new Set(rows.map((r) => r.currency))) {
      const group = rows.filter((r) => r.currency === currency);
      const groupIds = group.map((r) => r.id);
      const groupTotal = group.reduce((sum, r) => sum + r.amountCents, 0);
      const key = outstandingKey(userId, groupIds, groupTotal, card?.ref, released);
      if (onlyKey && key !== onlyKey) continue;
      if (groupTotal === 0) {
        await repo.markPaid(tx, groupIds);
        continue;
      }
      const outcome = await chargeSavedCard(
        tx,
        ctx.payments,
        {
          userId,
          amountCents: groupTotal,
          currency,
          notes: `Outstanding balance (${group.length} reservation${group.length === 1 ? '' : 's'})`,
          idempotencyKey: key,
          kind: 'capture',
        },
        { onSession: { returnUrl: outstandingReturnUrl(ctx.mail.publicUrl) } },
      );
      if (outcome.charge === null) {
        const action = {
          status: 'requires_action' as const,
          client_secret: outcome.action.clientSecret,
          challenge_url: outcome.action.challengeUrl,
        };
        return { captured, paidCents, action };
      }
      // The declined charge commits with the transaction: it is in the customer's transactions.
      if (!outcome.ok) return { captured, paidCents, error: outcome.message };
      await repo.markPaid(tx, groupIds, outcome.charge.id);
      captured.push({ charge: outcome.charge, rows: group });
      paidCents += groupTotal;
    }
    return { captured, paidCents };
  });
  for (const paid of end.captured) await sendCaptureReceipt(ctx.db, ctx.mail, userId, paid);
  if (end.action) return end.action;
  if (end.error) throw new PaymentError(end.error);
  if (end.paidCents === 0) return { detail: 'Nothing outstanding.', amount_cents: 0 };
  return { detail: OUTSTANDING_PAID_MESSAGE, amount_cents: end.paidCents };
}

/**
 * `outstanding-{user}-{fingerprint of the reservations, the amount, the card and the challenges
 * the money repair released}`: after an abandoned challenge was cancelled at the provider
 * (decision 0100), pressing pay again is a new attempt, not the expired one's answer.
 */
function outstandingKey(
  userId: number,
  ids: number[],
  total: number,
  cardRef: string | undefined,
  released: number,
) {
  const fingerprint = crypto
    .createHash('sha256')
    .update(`${ids.join(',')}|${total}|${cardRef ?? 'none'}${released ? `|${released}` : ''}`)
    .digest('hex')
    .slice(0, 24);
  return `outstanding-${userId}-${fingerprint}`;
}

/** How many of the user's balance challenges the money repair cancelled (decision 0100). */
async function releasedChallenges(tx: Queryable, userId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(paymentChallenges)
    .where(
      and(
        eq(paymentChallenges.userId, userId),
        eq(paymentChallenges.kind, 'capture'),
        isNotNull(paymentChallenges.releasedAt),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The webhook's way in (`payment_intent.succeeded` / `payment_failed` with the key
 * `outstanding-{user}-…`): the balance that key charges is settled as the intent ended, once.
 * A balance changed since (other bookings) is not charged anew here.
 */
export async function settleOutstanding(ctx: CaptureContext, key: string) {
  const userId = Number(/^outstanding-(\d+)-/.exec(key)?.[1]);
  if (!Number.isSafeInteger(userId)) return null;
  try {
    return await captureOutstanding(ctx, userId, key);
  } catch (error) {
    if (error instanceof PaymentError) return null;
    throw error;
  }
}

/** The receipt of a captured balance: what was paid, each booking with its venue and zone. */
async function sendCaptureReceipt(
  db: Db,
  mail: ReceiptDeps,
  userId: number,
  paid: { charge: ChargeRecord; rows: repo.ReservationRow[] },
) {
  try {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user?.email) return;
    const amount = formatMoney(paid.charge.amountCents, paid.charge.currency);
    await mail.mailer.send(
      await receiptMail({
        to: user.email,
        subject: `Receipt: outstanding balance of ${amount} paid`,
        venue: venueOf(await getSettings(db), mail.publicUrl),
        heading: 'Your outstanding balance is paid',
        paragraphs: ['Your saved card paid these bookings:'],
        lines: paid.rows.map(
          (r) =>
            `${describe(r)} at ${r.locationName} (${r.timezone}): ${formatMoney(r.amountCents, r.currency)}`,
        ),
        rows: [['Charged to your card', amount]],
        button: { label: 'Your transactions', href: '/dashboard' },
      }),
    );
  } catch (error) {
    mail.logError(error, 'balance receipt mail failed');
  }
}
