import type { Db } from '../../db/client';
import type { CrashPoint } from '../../lib/crash-point';
import type { Mailer } from '../../plugins/mail';
import type { PaymentProvider } from '../../plugins/payments/provider';
import type { ReceiptSender } from './receipts-owed';
import type { Deps } from '../../deps';

// Its own module: the steps of a checkout (claim-checkout.ts, finish-checkout.ts) take it and the
// checkout service calls them, so it cannot live in the service (decision 0086).
export type CheckoutContext = {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Sends the confirmations the checkouts owe, after their answers (decision 0059). */
  receipts: Pick<ReceiptSender, 'wake'>;
  /** For the dashboard link in the confirmation and its calendar's UIDs (PUBLIC_URL). */
  publicUrl: string;
  /** The venue as the calendar's organizer (MAIL_FROM). */
  mailFrom: string;
  logError: (error: unknown, message: string) => void;
  /** The crash test's step to die at (CHECKOUT_CRASH_AT); undefined everywhere else. */
  crashAt?: CrashPoint;
};

/** The checkout's context from the app's dependencies: every route that checks out builds it so. */
export function checkoutContextOf(
  deps: Deps,
  receipts: Pick<ReceiptSender, 'wake'>,
  logError: CheckoutContext['logError'],
): CheckoutContext {
  return {
    db: deps.database.db,
    payments: deps.payments,
    mailer: deps.mailer,
    receipts,
    publicUrl: deps.config.publicUrl,
    mailFrom: deps.config.mailFrom,
    logError,
    crashAt: deps.config.checkoutCrashAt,
  };
}
