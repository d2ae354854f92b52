import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import {
  CARD_DECLINED,
  CARD_INSUFFICIENT_FUNDS,
  cardBrand,
  cardDigits,
  fullExpiryYear,
  isExpired,
  type LocalTokenRequest,
} from '@paddock/contract/cards';
import type { Db } from '../../db/client';
import { executeNamed } from '../../db/named';
import { formatMoney } from '@paddock/contract/money';
import {
  charges,
  localCharges,
  localPaymentMethods,
  localRefunds,
  localSetupIntents,
  localTokens,
} from '../../db/schema/payments';
import {
  assertChargeable,
  AUTHENTICATION_EXPIRED_MESSAGE,
  AUTHENTICATION_FAILED_MESSAGE,
  AUTHENTICATION_PENDING_MESSAGE,
  AUTHENTICATION_REQUIRED,
  AUTHENTICATION_REQUIRED_MESSAGE,
  type SetupResult,
  type AttachCardInput,
  type SetupCardInput,
  type AttachedCard,
  CardError,
  type ChargeInput,
  type ChargeRow,
  type ChargeToRecord,
  type ChargeResult,
  type PaymentProvider,
  type RefundResult,
} from './provider';

export const REFUND_DECLINED = 'The refund to this card was declined by the bank.';

/**
 * Stripe's test numbers that do something other than succeed. Any other number passing the
 * Luhn check succeeds (4242 4242 4242 4242). 0341 attaches but never pays: it is how a
 * declined checkout, an outstanding balance and a failed club renewal can be tried out.
 */
export const TEST_CARDS: Record<
  string,
  { attach?: string; charge?: string; refund?: string; authentication?: Authentication }
> = {
  '4000000000000002': { attach: CARD_DECLINED },
  '4000000000000069': { attach: 'Your card has expired.' },
  '4000000000000127': { attach: "Your card's security code is incorrect." },
  '4000000000000341': { charge: CARD_DECLINED },
  '4000000000009995': { charge: CARD_INSUFFICIENT_FUNDS },
  // Stripe's "refund fails" card: charges go through, refunds to it are declined.
  '4000000000005126': { refund: REFUND_DECLINED },
  // Stripe's 3-D Secure cards (decision 0085).
  '4000002760003184': { authentication: 'always' },
  '4000002500003155': { authentication: 'setup' },
  '4000008400001629': { authentication: 'decline_after' },
};

/**
 * When the bank behind a test card asks for 3-D Secure, as Stripe's test cards do:
 * `always` (4000 0027 6000 3184): at setup and every charge, off-session ones answering
 * `authentication_required`; `setup` (4000 0025 0000 3155): when saved, never for the saved
 * card's charges; `decline_after` (4000 0084 0000 1629): like `always`, but a charge is declined
 * once authenticated.
 */
export type Authentication = 'always' | 'setup' | 'decline_after';
const asksOnCharge = (a: string | null) => a === 'always' || a === 'decline_after';

const TOKEN_TTL_MS = 60 * 60 * 1000;
/** Stripe's smallest charge in minor units: 50 for USD, EUR and most; 30 for GBP. */
const minChargeOf = (currency: string) => (currency === 'GBP' ? 30 : 50);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Stripe-looking unguessable ids: receipts are served to whoever holds the link. */
function newId(prefix: string): string {
  let id = '';
  for (let i = 0; i < 24; i++) id += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return `${prefix}_${id}`;
}

export type LocalChallenge = {
  status: string;
  brand: string;
  last4: string;
  amountCents: number | null;
  currency: string | null;
  description: string;
};

export type LocalReceipt = {
  id: string;
  amountCents: number;
  currency: string;
  description: string;
  createdAt: Date;
  brand: string;
  last4: string;
};

/**
 * The built-in provider: plays Stripe's part with its own tables, so a venue (and every test)
 * runs without an external service. Only display details of a card are kept, never its number.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly kind = 'local' as const;
  readonly publishableKey = null;
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  /** The card form's call (validated by the contract): a single-use token valid for an hour. */
  async createToken(card: LocalTokenRequest): Promise<{ id: string }> {
    const number = cardDigits(card.number);
    const behaviour = TEST_CARDS[number] ?? {};
    const id = newId('tok');
    await this.db.insert(localTokens).values({
      id,
      brand: cardBrand(number),
      last4: number.slice(-4),
      expMonth: card.exp_month,
      expYear: fullExpiryYear(card.exp_year),
      postalCode: card.postal_code || null,
      attachFailure: behaviour.attach ?? null,
      chargeFailure: behaviour.charge ?? null,
      refundFailure: behaviour.refund ?? null,
      authentication: behaviour.authentication ?? null,
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
    });
    // Housekeeping: tokens are useless a day after they expire.
    await this.db
      .delete(localTokens)
      .where(lt(localTokens.expiresAt, sql`now() - interval '1 day'`));
    return { id };
  }

  async attachCard(input: AttachCardInput): Promise<AttachedCard> {
    const token = await this.claimToken(input.token);
    return this.createMethod(token, input.customerRef ?? newId('cus'));
  }

  /** Claiming the token in one statement makes "single use" hold under concurrent requests. */
  private async claimToken(id: string) {
    const [token] = await this.db
      .update(localTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(localTokens.id, id),
          isNull(localTokens.usedAt),
          gt(localTokens.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!token) throw new CardError(await this.whyTokenUnusable(id));
    if (token.attachFailure) throw new CardError(token.attachFailure);
    return token;
  }

  private async createMethod(
    token: typeof localTokens.$inferSelect,
    customerRef: string,
    db: Pick<Db, 'insert'> = this.db,
  ): Promise<AttachedCard> {
    const paymentMethodRef = newId('pm');
    await db.insert(localPaymentMethods).values({
      id: paymentMethodRef,
      brand: token.brand,
      last4: token.last4,
      expMonth: token.expMonth,
      expYear: token.expYear,
      postalCode: token.postalCode,
      chargeFailure: token.chargeFailure,
      refundFailure: token.refundFailure,
      authentication: token.authentication,
      customerId: customerRef,
    });
    return {
      customerRef,
      paymentMethodRef,
      brand: token.brand,
      last4: token.last4,
      expMonth: token.expMonth,
      expYear: token.expYear,
      postalCode: token.postalCode,
    };
  }

  /** Like a SetupIntent confirmed with the card: saved now, or once its challenge passes. */
  async setupCard(input: SetupCardInput): Promise<SetupResult> {
    const token = await this.claimToken(input.token);
    const customerRef = input.customerRef ?? newId('cus');
    const id = newId('seti');
    const asks = token.authentication !== null;
    const card = asks ? null : await this.createMethod(token, customerRef);
    await this.db.insert(localSetupIntents).values({
      id,
      tokenId: token.id,
      customerId: customerRef,
      reference: input.reference,
      status: card ? 'succeeded' : 'requires_action',
      paymentMethodId: card?.paymentMethodRef ?? null,
      returnUrl: input.returnUrl,
    });
    if (card) return { status: 'succeeded', card };
    return {
      status: 'requires_action',
      action: { intentRef: id, clientSecret: null, challengeUrl: this.challengeUrl(id) },
    };
  }

  async finishSetup(setupRef: string): Promise<{ reference: string; card: AttachedCard }> {
    const [setup] = await this.db
      .select()
      .from(localSetupIntents)
      .where(eq(localSetupIntents.id, setupRef));
    if (!setup) throw new CardError(`No such setupintent: '${setupRef}'`);
    if (setup.status === 'requires_action') throw new CardError(AUTHENTICATION_PENDING_MESSAGE);
    if (setup.status !== 'succeeded' || !setup.paymentMethodId)
      throw new CardError(setup.failureMessage ?? AUTHENTICATION_FAILED_MESSAGE);
    const [method] = await this.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, setup.paymentMethodId));
    return {
      reference: setup.reference,
      card: {
        customerRef: setup.customerId,
        paymentMethodRef: method.id,
        brand: method.brand,
        last4: method.last4,
        expMonth: method.expMonth,
        expYear: method.expYear,
        postalCode: method.postalCode,
      },
    };
  }

  challengeUrl(intentRef: string): string {
    return `${this.publicUrl}/api/payments/local/challenges/${intentRef}`;
  }

  /** What the challenge page shows; null for an unknown intent. */
  async challenge(intentRef: string): Promise<LocalChallenge | null> {
    if (intentRef.startsWith('seti_')) {
      const [setup] = await this.db
        .select({
          status: localSetupIntents.status,
          brand: localTokens.brand,
          last4: localTokens.last4,
        })
        .from(localSetupIntents)
        .innerJoin(localTokens, eq(localTokens.id, localSetupIntents.tokenId))
        .where(eq(localSetupIntents.id, intentRef));
      return setup
        ? { ...setup, amountCents: null, currency: null, description: 'Saving your card' }
        : null;
    }
    const [charge] = await this.db
      .select({
        status: localCharges.status,
        brand: localPaymentMethods.brand,
        last4: localPaymentMethods.last4,
        amountCents: localCharges.amountCents,
        currency: localCharges.currency,
        description: localCharges.description,
      })
      .from(localCharges)
      .innerJoin(localPaymentMethods, eq(localPaymentMethods.id, localCharges.paymentMethodId))
      .where(eq(localCharges.id, intentRef));
    return charge ?? null;
  }

  /**
   * The customer's answer on the challenge page, once (a second answer changes nothing): the
   * setup or charge succeeds, or fails. Answers where the customer goes back to, with the
   * intent named as Stripe names it there; null for an unknown intent.
   */
  async answerChallenge(intentRef: string, passed: boolean): Promise<string | null> {
    const back = (url: string | null, param: string) =>
      `${url ?? `${this.publicUrl}/`}${(url ?? '').includes('?') ? '&' : '?'}${param}=${intentRef}`;
    if (intentRef.startsWith('seti_'))
      return this.db.transaction(async (tx) => {
        const [setup] = await tx
          .select()
          .from(localSetupIntents)
          .where(eq(localSetupIntents.id, intentRef))
          .for('update');
        if (!setup) return null;
        if (setup.status === 'requires_action') {
          const [token] = await tx
            .select()
            .from(localTokens)
            .where(eq(localTokens.id, setup.tokenId));
          const card = passed ? await this.createMethod(token, setup.customerId, tx) : null;
          await tx
            .update(localSetupIntents)
            .set(
              card
                ? { status: 'succeeded', paymentMethodId: card.paymentMethodRef }
                : { status: 'failed', failureMessage: AUTHENTICATION_FAILED_MESSAGE },
            )
            .where(eq(localSetupIntents.id, intentRef));
        }
        return back(setup.returnUrl, 'setup_intent');
      });
    return this.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(localCharges)
        .where(eq(localCharges.id, intentRef))
        .for('update');
      if (!charge) return null;
      if (charge.status === 'requires_action') {
        const [method] = await tx
          .select({ authentication: localPaymentMethods.authentication })
          .from(localPaymentMethods)
          .where(eq(localPaymentMethods.id, charge.paymentMethodId));
        const failure = !passed
          ? AUTHENTICATION_FAILED_MESSAGE
          : method?.authentication === 'decline_after'
            ? CARD_DECLINED
            : null;
        await tx
          .update(localCharges)
          .set({ status: failure ? 'failed' : 'succeeded', failureMessage: failure })
          .where(eq(localCharges.id, intentRef));
      }
      return back(charge.returnUrl, 'payment_intent');
    });
  }

  private async whyTokenUnusable(id: string): Promise<string> {
    const [token] = await this.db.select().from(localTokens).where(eq(localTokens.id, id));
    if (!token) return `No such token: '${id}'`;
    if (token.usedAt) return 'This card token was already used. Please enter your card again.';
    return 'This card token has expired. Please enter your card again.';
  }

  async detachCard(card: { customerRef: string; paymentMethodRef: string }): Promise<void> {
    await this.db
      .update(localPaymentMethods)
      .set({ customerId: null })
      .where(
        and(
          eq(localPaymentMethods.id, card.paymentMethodRef),
          eq(localPaymentMethods.customerId, card.customerRef),
        ),
      );
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    assertChargeable(input.amountCents);
    const earlier = await this.findCharge(input.idempotencyKey);
    if (earlier) return this.toResult(await this.bringOnSession(earlier, input), input);

    const [method] = await this.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, input.paymentMethodRef));
    let failure: string | null;
    if (!method || method.customerId !== input.customerRef)
      failure = 'This card is no longer on file. Please add your card again.';
    else if (input.amountCents < minChargeOf(input.currency))
      failure = `Amount must be at least ${formatMoney(minChargeOf(input.currency), input.currency)} ${input.currency.toLowerCase()}`;
    else if (isExpired(method.expMonth, method.expYear)) failure = 'Your card has expired.';
    else failure = method.chargeFailure;
    const asks = !failure && asksOnCharge(method!.authentication);

    // The unique key decides a race: the loser writes nothing and answers the winner's result.
    const [row] = await this.db
      .insert(localCharges)
      .values({
        id: newId('ch'),
        idempotencyKey: input.idempotencyKey,
        customerId: input.customerRef,
        paymentMethodId: input.paymentMethodRef,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.description,
        status: failure ? 'failed' : asks ? 'requires_action' : 'succeeded',
        failureMessage: failure,
        returnUrl: asks ? (input.onSession?.returnUrl ?? null) : null,
      })
      .onConflictDoNothing({ target: localCharges.idempotencyKey })
      .returning();
    const charge = row ?? (await this.findCharge(input.idempotencyKey));
    if (!charge) throw new Error('local charge vanished after an idempotency conflict');
    return this.toResult(charge, input);
  }

  /**
   * A charge waiting for authentication that the customer now attempts on-session (Stripe:
   * confirming the PaymentIntent again): its challenge returns them to this page.
   */
  private async bringOnSession(charge: typeof localCharges.$inferSelect, input: ChargeInput) {
    const returnUrl = input.onSession?.returnUrl;
    if (charge.status !== 'requires_action' || !returnUrl || charge.returnUrl === returnUrl)
      return charge;
    await this.db
      .update(localCharges)
      .set({ returnUrl })
      .where(and(eq(localCharges.id, charge.id), eq(localCharges.status, 'requires_action')));
    return { ...charge, returnUrl };
  }

  /**
   * The charge and its Charge row in one statement (decision 0062), on this provider's own pool
   * only: there each statement commits on its own, as `charge` then the caller's INSERT did,
   * and now both or neither. What `charge` decides is decided here in SQL the same way: an
   * earlier charge under the provider's key is answered, not repeated; a card no longer the
   * customer's, an amount below the minimum, an expired card or a test card's decline fails.
   * Nothing is charged when a Charge row already holds our key (it may be a failure recorded
   * without the provider). Null when it did not record: the caller's usual path takes over.
   */
  async chargeAndRecord(
    db: unknown,
    input: ChargeInput,
    record: ChargeToRecord,
  ): Promise<ChargeRow | null> {
    if (db !== this.db) return null;
    assertChargeable(input.amountCents);
    const min = minChargeOf(input.currency);
    const tooSmall =
      input.amountCents < min
        ? `Amount must be at least ${formatMoney(min, input.currency)} ${input.currency.toLowerCase()}`
        : null;
    const now = new Date();
    const [row] = await executeNamed<ChargeRow>(
      this.db,
      sql`
      with
      earlier as (
        select id, status, failure_message from ${localCharges}
        where idempotency_key = ${input.idempotencyKey}
      ),
      method as (
        select customer_id, charge_failure, authentication,
          (case when exp_year < 100 then exp_year + 2000 else exp_year end) as year, exp_month
        from ${localPaymentMethods} where id = ${input.paymentMethodRef}
      ),
      verdict as (
        select case
          when not exists (select 1 from method where customer_id = ${input.customerRef})
            then ${'This card is no longer on file. Please add your card again.'}
          when ${tooSmall}::text is not null then ${tooSmall}::text
          when exists (select 1 from method where year < ${now.getUTCFullYear()}::int
            or (year = ${now.getUTCFullYear()}::int and exp_month < ${now.getUTCMonth() + 1}::int))
            then ${'Your card has expired.'}
          else (select charge_failure from method)
        end as failure
      ),
      made as (
        insert into ${localCharges} (id, idempotency_key, customer_id, payment_method_id,
          amount_cents, currency, description, status, failure_message)
        select ${newId('ch')}, ${input.idempotencyKey}, ${input.customerRef},
          ${input.paymentMethodRef}, ${input.amountCents}::int, ${input.currency},
          ${input.description}, case when failure is null then 'succeeded' else 'failed' end,
          failure
        from verdict
        where not exists (select 1 from earlier)
          -- A bank asking for 3-D Secure is charge()'s: it answers what the challenge needs.
          and coalesce((select authentication from method), '') not in ('always', 'decline_after')
          and not exists (select 1 from ${charges} where idempotency_key = ${record.idempotencyKey})
        on conflict (idempotency_key) do nothing
        returning id, status, failure_message
      ),
      answer as (
        select * from made union all select * from earlier where status <> 'requires_action'
      )
      insert into ${charges} (user_id, amount_cents, currency, notes, kind, idempotency_key,
        errors, charge_ref, receipt_url)
      select ${record.userId}::int, ${input.amountCents}::int, ${input.currency}, ${record.notes},
        ${record.kind}, ${record.idempotencyKey},
        case when status = 'succeeded' then '' else coalesce(failure_message, ${CARD_DECLINED}) end,
        id, case when status = 'succeeded' then ${this.receiptUrl('')} || id end
      from answer
      on conflict (idempotency_key) do nothing
      returning id, user_id as "userId", amount_cents as "amountCents", currency, notes, errors,
        receipt_url as "receiptUrl", charge_ref as "chargeRef",
        idempotency_key as "idempotencyKey", kind, method, taken_by_id as "takenById",
        created_at as "createdAt"`,
    );
    return row ? { ...row, createdAt: new Date(row.createdAt) } : null;
  }

  private async findCharge(idempotencyKey: string) {
    const [row] = await this.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.idempotencyKey, idempotencyKey));
    return row;
  }

  private toResult(charge: typeof localCharges.$inferSelect, input?: ChargeInput): ChargeResult {
    if (charge.status === 'succeeded')
      return { ok: true, chargeRef: charge.id, receiptUrl: this.receiptUrl(charge.id) };
    if (charge.status === 'requires_action')
      return input?.onSession
        ? {
            ok: false,
            message: AUTHENTICATION_PENDING_MESSAGE,
            chargeRef: charge.id,
            action: {
              intentRef: charge.id,
              clientSecret: null,
              challengeUrl: this.challengeUrl(charge.id),
            },
          }
        : {
            ok: false,
            message: AUTHENTICATION_REQUIRED_MESSAGE,
            chargeRef: charge.id,
            code: AUTHENTICATION_REQUIRED,
          };
    return { ok: false, message: charge.failureMessage ?? CARD_DECLINED, chargeRef: charge.id };
  }

  receiptUrl(chargeId: string): string {
    return `${this.publicUrl}/api/payments/local/receipts/${chargeId}`;
  }

  /** A succeeded charge with the card it was paid by; null for unknown or failed charges. */
  async receipt(chargeId: string): Promise<LocalReceipt | null> {
    const [row] = await this.db
      .select({
        id: localCharges.id,
        amountCents: localCharges.amountCents,
        currency: localCharges.currency,
        description: localCharges.description,
        createdAt: localCharges.createdAt,
        brand: localPaymentMethods.brand,
        last4: localPaymentMethods.last4,
      })
      .from(localCharges)
      .innerJoin(localPaymentMethods, eq(localPaymentMethods.id, localCharges.paymentMethodId))
      .where(and(eq(localCharges.id, chargeId), eq(localCharges.status, 'succeeded')));
    return row ?? null;
  }

  /**
   * Like Stripe's refunds: once per key (a racing repeat answers the first result), never more
   * than is left on the succeeded charge. Refunds of one charge are serialized by locking it.
   */
  async refund(chargeRef: string, amountCents: number, key: string): Promise<RefundResult> {
    assertChargeable(amountCents);
    return this.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(localCharges)
        .where(eq(localCharges.id, chargeRef))
        .for('update');
      const [earlier] = await tx
        .select()
        .from(localRefunds)
        .where(eq(localRefunds.idempotencyKey, key));
      if (earlier) return refundResult(earlier);
      let failure: string | null;
      if (!charge || charge.status !== 'succeeded') failure = `No such charge: '${chargeRef}'`;
      else {
        const [{ refunded }] = await tx
          .select({ refunded: sql<number>`coalesce(sum(${localRefunds.amountCents}), 0)::int` })
          .from(localRefunds)
          .where(and(eq(localRefunds.chargeId, chargeRef), eq(localRefunds.status, 'succeeded')));
        const left = charge.amountCents - refunded;
        const [method] = await tx
          .select({ refundFailure: localPaymentMethods.refundFailure })
          .from(localPaymentMethods)
          .where(eq(localPaymentMethods.id, charge.paymentMethodId));
        if (amountCents > left)
          failure = `Refund amount (${formatMoney(amountCents, charge.currency)}) is greater than unrefunded amount on charge (${formatMoney(left, charge.currency)})`;
        else failure = method?.refundFailure ?? null;
      }
      const [row] = await tx
        .insert(localRefunds)
        .values({
          id: newId('re'),
          idempotencyKey: key,
          chargeId: chargeRef,
          amountCents,
          status: failure ? 'failed' : 'succeeded',
          failureMessage: failure,
        })
        .onConflictDoNothing({ target: localRefunds.idempotencyKey })
        .returning();
      if (row) return refundResult(row);
      const [winner] = await tx
        .select()
        .from(localRefunds)
        .where(eq(localRefunds.idempotencyKey, key));
      return refundResult(winner);
    });
  }

  async authenticateLater(intentRef: string, returnUrl: string): Promise<ChargeResult> {
    const [charge] = await this.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.id, intentRef));
    if (!charge)
      return { ok: false, message: `No such payment_intent: '${intentRef}'`, chargeRef: null };
    const input = { onSession: { returnUrl } } as ChargeInput;
    return this.toResult(await this.bringOnSession(charge, input), input);
  }

  async cancelAuthentication(intentRef: string): Promise<void> {
    await this.db
      .update(localCharges)
      .set({ status: 'failed', failureMessage: AUTHENTICATION_EXPIRED_MESSAGE })
      .where(and(eq(localCharges.id, intentRef), eq(localCharges.status, 'requires_action')));
  }

  /** The local provider has no dashboard; staff see the customer in Paddock itself. */
  customerUrl(): string | null {
    return null;
  }
}

function refundResult(row: typeof localRefunds.$inferSelect): RefundResult {
  return row.status === 'succeeded'
    ? { ok: true, refundRef: row.id }
    : { ok: false, message: row.failureMessage ?? REFUND_DECLINED, refundRef: row.id };
}
