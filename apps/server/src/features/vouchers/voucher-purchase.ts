import { formatMoney } from '@paddock/contract/money';
import type { Voucher, VoucherPurchase } from '@paddock/contract/vouchers';
import type { Db } from '../../db/client';
import { NotFound, ValidationError } from '../../plugins/errors';
import type { Mailer } from '../../plugins/mail';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import type { PaymentProvider } from '../../plugins/payments/provider';
import { getSettings } from '../../plugins/settings';
import { venueOf } from '../../plugins/receipt-mail';
import { voucherBuyerReceipt, voucherMail } from './voucher-mail';
import * as repo from './vouchers.repo';
import { createVoucher } from './vouchers.service';

export const NO_CARD_FOR_VOUCHER_MESSAGE = 'Add a payment method to purchase a voucher.';

export type PurchaseContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
};

/**
 * Buys a gift voucher with the saved card. The voucher and its charge (key `voucher-{code}`,
 * kind `voucher`) are written in one transaction; a declined card removes the voucher again, so
 * a voucher exists exactly when it was paid for, and the failed charge stays in the buyer's
 * transactions. Then the code is e-mailed to the recipient, or to the buyer; a mail failure is
 * logged and does not undo the purchase (the code is also in the answer).
 */
export async function purchaseVoucher(
  ctx: PurchaseContext,
  buyerId: number,
  body: VoucherPurchase,
): Promise<Voucher> {
  const buyer = await repo.findBuyer(ctx.db, buyerId, ctx.payments.kind);
  if (!buyer) throw new NotFound();
  if (!buyer.hasCard) throw ValidationError.nonField(NO_CARD_FOR_VOUCHER_MESSAGE);
  const recipient = body.email_to || null;
  const settings = await getSettings(ctx.db);
  const currency = settings.default_currency;
  const amount = formatMoney(body.amount_cents, currency);

  const result = await ctx.db.transaction(async (tx) => {
    const voucher = await createVoucher(tx, {
      amountCents: body.amount_cents,
      currency,
      createdById: buyerId,
      source: 'purchase',
      recipientEmail: recipient ?? '',
      fromName: recipient ? (body.email_from_name ?? '') : '',
      message: recipient ? (body.email_comments ?? '') : '',
    });
    const outcome = await chargeSavedCard(tx, ctx.payments, {
      userId: buyerId,
      amountCents: body.amount_cents,
      currency,
      notes: recipient ? `Gift voucher ${amount} for ${recipient}` : `Gift voucher ${amount}`,
      idempotencyKey: `voucher-${voucher.code}`,
      kind: 'voucher',
    });
    if (!outcome.ok) {
      await repo.deleteVoucher(tx, voucher.code);
      return { error: outcome.message };
    }
    return { voucher };
  });
  if (!result.voucher) throw ValidationError.nonField(result.error);

  const venue = venueOf(settings, ctx.publicUrl);
  const voucher = result.voucher;
  // Built one at a time, so a failing template is caught and logged like a failing send.
  const mails = [
    (recipient ?? buyer.email)
      ? () =>
          voucherMail({
            to: (recipient ?? buyer.email)!,
            code: voucher.code,
            amountCents: voucher.amount_cents,
            currency: voucher.currency,
            gift: recipient
              ? { fromName: body.email_from_name ?? '', comments: body.email_comments ?? '' }
              : null,
            venue,
          })
      : null,
    recipient && buyer.email
      ? () =>
          voucherBuyerReceipt({
            to: buyer.email,
            recipient,
            amountCents: voucher.amount_cents,
            currency: voucher.currency,
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
  return result.voucher;
}
