import { and, eq } from 'drizzle-orm';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { centsToDollars, NO_PAYMENT_METHOD, type Charge } from '@paddock/contract/charges';
import type { schema } from '../../db/schema';
import { cards, charges, paymentChallenges } from '../../db/schema/payments';
import { AUTHENTICATION_REQUIRED_MESSAGE, type NextAction, type PaymentProvider } from './provider';

/** The pool (`deps.database.db`) or a transaction of it. */
export type Queryable = PgDatabase<NodePgQueryResultHKT, typeof schema>;

export type ChargeKind = 'booking' | 'club' | 'voucher' | 'capture' | 'refund' | 'other';
export type ChargeRecord = typeof charges.$inferSelect;
export type CardRecord = typeof cards.$inferSelect;
export type ChargeOutcome =
  { ok: true; charge: ChargeRecord } | { ok: false; message: string; charge: ChargeRecord };
/**
 * An on-session charge the bank wants authenticated: nothing is recorded yet, the customer runs
 * the challenge, and the same key then answers how it ended (decision 0085).
 */
export type ActionOutcome = { ok: false; action: NextAction; message: string; charge: null };

export type ChargeRequest = {
  userId: number;
  amountCents: number;
  /** ISO 4217: the location's currency, or the venue default for club and vouchers. */
  currency: string;
  notes: string;
  idempotencyKey: string;
  kind: ChargeKind;
};

/**
 * What the caller knows of this charge: `fresh` when no charge can be recorded under this key yet
 * (the caller has just claimed the work the key names).
 */
export type ChargeKnown = {
  fresh?: boolean;
  /**
   * The work the key names may have been charged at the provider since this instant, its
   * answer lost (a crash): ask the provider for that charge before charging (decision 0084).
   */
  lookUpSince?: Date;
  /**
   * The customer is on the page (decision 0085): a bank asking for 3-D Secure answers the
   * challenge (an ActionOutcome, nothing recorded) instead of a decline.
   */
  onSession?: { returnUrl: string };
};

/**
 * Charges a user's saved card once per `idempotencyKey` and records the attempt as a Charge,
 * success or failure (a missing card is recorded too, with "No payment method on file.").
 * A second call with the same key answers the recorded charge without asking the provider;
 * two calls racing on one key reach the provider with the same key, which charges once, and
 * the unique key keeps one Charge row. A failure is final for its key, as at Stripe: try again
 * with a new key (e.g. capture of the outstanding balance after a new card).
 *
 * Where to call it: preferably right AFTER the caller's transaction commits (pass
 * `deps.database.db`), so the card is never charged for work that rolled back and a crash
 * between the two leaves an outstanding balance rather than a lost payment. It also works INSIDE
 * a transaction (pass `tx`): the Charge row then commits or rolls back with the caller's work,
 * while the provider's charge cannot roll back; a retry with the same key gets the provider's
 * first answer and records it without charging again. Inside a transaction the local provider
 * needs a second pool connection, so keep such transactions short.
 *
 * Throws when the provider cannot be reached; nothing is recorded then, so a retry may proceed.
 */
export function chargeSavedCard(
  db: Queryable,
  payments: PaymentProvider,
  input: ChargeRequest,
  known?: ChargeKnown & { onSession?: undefined },
): Promise<ChargeOutcome>;
export function chargeSavedCard(
  db: Queryable,
  payments: PaymentProvider,
  input: ChargeRequest,
  known: ChargeKnown,
): Promise<ChargeOutcome | ActionOutcome>;
export async function chargeSavedCard(
  db: Queryable,
  payments: PaymentProvider,
  input: ChargeRequest,
  known: ChargeKnown = {},
): Promise<ChargeOutcome | ActionOutcome> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw new RangeError(`Not a chargeable amount: ${input.amountCents}`);
  if (!known.fresh) {
    const recorded = await findCharge(db, input.idempotencyKey);
    if (recorded) return outcome(recorded);
  }

  const [card] = await db
    .select()
    .from(cards)
    .where(and(eq(cards.userId, input.userId), eq(cards.provider, payments.kind)));
  const request = card && {
    customerRef: card.customerRef,
    paymentMethodRef: card.paymentMethodRef,
    amountCents: input.amountCents,
    currency: input.currency,
    description: input.notes || input.kind,
    // Scoped by the provider's customer id (unique at the provider), so two installations
    // sharing a Stripe account can never answer each other's "checkout:12".
    idempotencyKey: `${card.customerRef}:${input.idempotencyKey}`,
    ...(known.onSession ? { onSession: known.onSession } : {}),
  };
  // A key the provider may have forgotten (Stripe: after 24 hours) would charge again.
  const earlier =
    request && known.lookUpSince && payments.findEarlierCharge
      ? await payments.findEarlierCharge(request, known.lookUpSince)
      : null;
  // A provider in our database charges and records in one statement (decision 0062).
  if (request && !earlier && payments.chargeAndRecord) {
    const recorded = await payments.chargeAndRecord(db, request, {
      userId: input.userId,
      notes: input.notes,
      kind: input.kind,
      idempotencyKey: input.idempotencyKey,
    });
    if (recorded) return outcome(recorded);
  }
  let attempt: { errors: string; chargeRef: string | null; receiptUrl: string | null };
  if (!request) {
    attempt = { errors: NO_PAYMENT_METHOD, chargeRef: null, receiptUrl: null };
  } else {
    const result = earlier ?? (await payments.charge(request));
    if (!result.ok && result.action && known.onSession) {
      // Remembered, so the money repair can cancel it when nobody answers (decision 0100).
      await db
        .insert(paymentChallenges)
        .values({
          idempotencyKey: input.idempotencyKey,
          userId: input.userId,
          kind: input.kind,
          intentRef: result.action.intentRef,
          amountCents: input.amountCents,
          currency: input.currency,
          notes: input.notes,
        })
        .onConflictDoNothing({ target: paymentChallenges.idempotencyKey });
      return { ok: false, action: result.action, message: result.message, charge: null };
    }
    attempt = result.ok
      ? { errors: '', chargeRef: result.chargeRef, receiptUrl: result.receiptUrl }
      : { errors: result.message, chargeRef: result.chargeRef, receiptUrl: null };
  }

  const [row] = await db
    .insert(charges)
    .values({
      userId: input.userId,
      amountCents: input.amountCents,
      currency: input.currency,
      notes: input.notes,
      kind: input.kind,
      idempotencyKey: input.idempotencyKey,
      ...attempt,
    })
    .onConflictDoNothing({ target: charges.idempotencyKey })
    .returning();
  const charge = row ?? (await findCharge(db, input.idempotencyKey));
  if (!charge) throw new Error('charge vanished after an idempotency conflict');
  return outcome(charge);
}

async function findCharge(db: Queryable, idempotencyKey: string) {
  const [row] = await db.select().from(charges).where(eq(charges.idempotencyKey, idempotencyKey));
  return row;
}

function outcome(charge: ChargeRecord): ChargeOutcome {
  return charge.errors ? { ok: false, message: charge.errors, charge } : { ok: true, charge };
}

/**
 * A charge made without the customer that their bank wants authenticated: the customer can
 * still complete it on-session (features/charges/authenticate-charge.ts, decision 0085).
 */
export function needsAuthentication(charge: ChargeRecord): boolean {
  return charge.errors === AUTHENTICATION_REQUIRED_MESSAGE && charge.chargeRef !== null;
}

/** A recorded charge as the API shows it (spec: Charge). */
export function chargeResponse(charge: ChargeRecord): Charge {
  return {
    id: charge.id,
    amount: centsToDollars(charge.amountCents),
    amount_cents: charge.amountCents,
    currency: charge.currency,
    notes: charge.notes,
    errors: charge.errors,
    receipt_url: charge.receiptUrl,
    created: charge.createdAt.toISOString(),
    charge_id: charge.chargeRef,
    method: charge.method ?? 'card',
    // Only refund lines carry it, so charge answers stay exactly as they were.
    ...(charge.kind === 'refund'
      ? { refund: Number(/^refund-(\d+)-/.exec(charge.idempotencyKey)?.[1] ?? 0) || null }
      : {}),
  };
}
