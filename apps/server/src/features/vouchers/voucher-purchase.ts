import { formatMoney } from '@paddock/contract/money';
import type {
  Voucher,
  VoucherPurchase,
  VoucherPurchaseAction,
  VoucherPurchased,
} from '@paddock/contract/vouchers';
import type { Db } from '../../db/client';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import {
  chargeSavedCard,
  type ActionOutcome,
  type ChargeOutcome,
  type Queryable,
} from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { getSettings } from '../../plugins/settings';
import { crashAt, type CrashPoint } from '../../lib/crash-point';
import { venueOf } from '../../plugins/receipt-mail';
import { voucherBuyerReceipt, voucherMail } from './voucher-mail';
import * as repo from './vouchers.repo';
import * as purchases from './voucher-purchases.repo';
import type { PurchaseRow } from './voucher-purchases.repo';
import { createVoucher, generateVoucherCode } from './vouchers.service';

export const NO_CARD_FOR_VOUCHER_MESSAGE = 'Add a payment method to purchase a voucher.';

export type PurchaseContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
  /** The crash test's step to die at (decision 0072; CHECKOUT_CRASH_AT). */
  crashAt?: CrashPoint;
};

/** Where a purchase's 3-D Secure challenge brings the buyer back: the web asks to complete. */
export const voucherReturnUrl = (publicUrl: string, id: number) =>
  `${publicUrl}/vouchers/purchases/${id}/authenticated`;

/** How one attempt ended: paid (the voucher), declined (the message), or the challenge. */
type Settled =
  | { voucher: Voucher; finishedNow: boolean }
  | { error: string }
  | { action: VoucherPurchaseAction };

/**
 * Buys a gift voucher with the saved card, the buyer on the page (decision 0095). The purchase
 * (its code drawn), its charge (key `voucher-{code}`, kind `voucher`) and, once paid, the voucher
 * are written in one transaction, so a voucher exists exactly when it was paid for; a decline
 * leaves the purchase `failed` and the failed charge in the buyer's transactions. A bank asking
 * for 3-D Secure: the purchase waits (nothing charged, no voucher) and the answer is the
 * challenge; `completeVoucherPurchase` finishes it. Then the code is e-mailed to the recipient,
 * or to the buyer; a mail failure is logged and does not undo the purchase.
 */
export async function purchaseVoucher(
  ctx: PurchaseContext,
  buyerId: number,
  body: VoucherPurchase,
): Promise<Voucher | VoucherPurchaseAction> {
  const buyer = await repo.findBuyer(ctx.db, buyerId, ctx.payments.kind);
  if (!buyer) throw new NotFound();
  if (!buyer.hasCard) throw ValidationError.nonField(NO_CARD_FOR_VOUCHER_MESSAGE);
  const recipient = body.email_to || null;
  const currency = (await getSettings(ctx.db)).default_currency;

  // Committed before the charge (decision 0100): a crash after the charge leaves the purchase
  // for the money repair to finish with the same key, never a charge nothing knows of.
  let row: PurchaseRow | null = null;
  while (!row)
    row = await purchases.insertPurchase(ctx.db, {
      buyerId,
      code: generateVoucherCode(),
      amountCents: body.amount_cents,
      currency,
      recipientEmail: recipient ?? '',
      fromName: recipient ? (body.email_from_name ?? '') : '',
      message: recipient ? (body.email_comments ?? '') : '',
      status: 'awaiting_authentication',
    });
  // Charged under the purchase's lock, as every later finisher does (a racing repair waits).
  const done = await completeVoucherPurchase(ctx, row.id, buyerId);
  if ('status' in done) return done;
  const { email_to: _sentTo, ...voucher } = done;
  return voucher;
}

/**
 * Finishes a purchase after its challenge, exactly once whoever asks first (the web's return,
 * the webhook, a retry): under the purchase's row lock the same key asks the provider how the
 * challenge ended. Paid: the voucher is made and mailed; failed: nothing charged, no voucher,
 * the bank's message; still open: the challenge again. `buyerId` null: the webhook.
 */
export async function completeVoucherPurchase(
  ctx: PurchaseContext,
  id: number,
  buyerId: number | null,
): Promise<VoucherPurchased | VoucherPurchaseAction> {
  const found = await ctx.db.transaction(async (tx) => {
    const row = await purchases.lockPurchase(tx, id);
    if (!row || (buyerId !== null && row.buyerId !== buyerId)) return null;
    if (row.status === 'paid') {
      const made = (await repo.findByCode(tx, row.code))!;
      const voucher = { code: made.code, amount_cents: made.amountCents, currency: made.currency };
      return { row, settled: { voucher, finishedNow: false } };
    }
    return { row, settled: await chargeAndSettle(tx, ctx, row) };
  });
  if (!found) throw new NotFound();
  const answered = await answer(ctx, found.row, found.settled);
  return 'status' in answered
    ? answered
    : { ...answered, email_to: found.row.recipientEmail || null };
}

/**
 * The webhook's way in: finishes the purchase a PaymentIntent's key names if it still waits.
 * Answers the voucher, the challenge still open, or null (nothing waits; or declined: the
 * buyer's page tells them).
 */
export async function settleVoucherPurchase(ctx: PurchaseContext, code: string) {
  const row = await purchases.findPurchaseByCode(ctx.db, code);
  if (row?.status !== 'awaiting_authentication') return null;
  try {
    return await completeVoucherPurchase(ctx, row.id, null);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

/** Charges (or asks how the challenge ended) and stores the end, in the caller's transaction. */
async function chargeAndSettle(
  tx: Queryable,
  ctx: PurchaseContext,
  row: PurchaseRow,
): Promise<Settled> {
  const amount = formatMoney(row.amountCents, row.currency);
  const outcome: ChargeOutcome | ActionOutcome = await chargeSavedCard(
    tx,
    ctx.payments,
    {
      userId: row.buyerId,
      amountCents: row.amountCents,
      currency: row.currency,
      notes: row.recipientEmail
        ? `Gift voucher ${amount} for ${row.recipientEmail}`
        : `Gift voucher ${amount}`,
      idempotencyKey: `voucher-${row.code}`,
      kind: 'voucher',
    },
    { onSession: { returnUrl: voucherReturnUrl(ctx.publicUrl, row.id) } },
  );
  if (outcome.charge === null)
    return {
      action: {
        status: 'requires_action',
        purchase: row.id,
        client_secret: outcome.action.clientSecret,
        challenge_url: outcome.action.challengeUrl,
      },
    };
  if (!outcome.ok) {
    await purchases.setPurchaseStatus(tx, row.id, 'failed');
    return { error: outcome.message };
  }
  crashAt(ctx.crashAt, 'charged');
  const made = await createVoucher(tx, {
    code: row.code,
    amountCents: row.amountCents,
    currency: row.currency,
    createdById: row.buyerId,
    source: 'purchase',
    recipientEmail: row.recipientEmail,
    fromName: row.fromName,
    message: row.message,
  });
  await purchases.setPurchaseStatus(tx, row.id, 'paid');
  const voucher = { code: made.code, amount_cents: made.amount_cents, currency: made.currency };
  return { voucher, finishedNow: true };
}

/** After the commit: the answer, and the mails of a purchase paid just now. */
async function answer(
  ctx: PurchaseContext,
  row: PurchaseRow,
  settled: Settled,
): Promise<Voucher | VoucherPurchaseAction> {
  if ('action' in settled) return settled.action;
  if ('error' in settled) throw ValidationError.nonField(settled.error);
  if (settled.finishedNow) await sendVoucherMails(ctx, row);
  return settled.voucher;
}

async function sendVoucherMails(ctx: PurchaseContext, row: PurchaseRow) {
  const buyer = await repo.findBuyer(ctx.db, row.buyerId, ctx.payments.kind);
  const recipient = row.recipientEmail || null;
  const venue = venueOf(await getSettings(ctx.db), ctx.publicUrl);
  const to = recipient ?? buyer?.email;
  // Built one at a time, so a failing template is caught and logged like a failing send.
  const mails = [
    to
      ? () =>
          voucherMail({
            to,
            code: row.code,
            amountCents: row.amountCents,
            currency: row.currency,
            gift: recipient ? { fromName: row.fromName, comments: row.message } : null,
            venue,
          })
      : null,
    recipient && buyer?.email
      ? () =>
          voucherBuyerReceipt({
            to: buyer.email,
            recipient,
            amountCents: row.amountCents,
            currency: row.currency,
            venue,
          })
      : null,
  ];
  for (const mail of mails) {
    if (!mail) continue;
    try {
      await ctx.mailer.send(await mail());
    } catch (error) {
      ctx.logError(error, 'gift voucher mail failed');
    }
  }
}
