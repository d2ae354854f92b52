import { settleVoucherPurchase, type PurchaseContext } from '../vouchers/voucher-purchase';
import { settleCancellation, settleEnrolment } from '../club/club.service';
import { settleOutstanding } from '../reservations/outstanding';

/** What finishing an on-session payment needs (the webhook's and the money repair's). */
export type SettleContext = Omit<PurchaseContext, 'crashAt'>;

/** Our charge key inside the provider's (`{customer}:voucher-…`, charge-card.ts). */
export function ownKey(providerKey: string): string {
  return providerKey.slice(providerKey.lastIndexOf(':') + 1);
}

/**
 * Finishes whatever waits on an on-session charge's challenge, named by our charge key: a
 * voucher purchase (`voucher-{code}`, 0095), an enrolment (`club-{id}-{date}`, 0095), a
 * cancellation's charge-back (`club-{id}-chargeback-{n}`, 0100), an outstanding balance
 * (`outstanding-{user}-…`, 0099). Each asks the provider how it ended, under its own lock, once.
 */
export async function settleByKey(ctx: SettleContext, key: string): Promise<void> {
  const mail = { mailer: ctx.mailer, publicUrl: ctx.publicUrl, logError: ctx.logError };
  const club = { db: ctx.db, payments: ctx.payments, publicUrl: ctx.publicUrl, mail };
  const voucher = /^voucher-([A-Z0-9]+)$/.exec(key)?.[1];
  if (voucher !== undefined) await settleVoucherPurchase(ctx, voucher);
  const enrolment = /^club-(\d+)-\d{4}-\d{2}-\d{2}$/.exec(key)?.[1];
  // Only a pending enrolment: a renewal's key looks the same and is not waiting here.
  if (enrolment !== undefined) await settleEnrolment(club, Number(enrolment));
  if (/^club-\d+-chargeback-\d+$/.test(key)) await settleCancellation(club, key);
  if (/^outstanding-\d+-[0-9a-f]+$/.test(key))
    await settleOutstanding({ db: ctx.db, payments: ctx.payments, mail }, key);
}
