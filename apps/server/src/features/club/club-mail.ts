import { eq } from 'drizzle-orm';
import { formatMoney } from '@paddock/contract/money';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { receiptMail, venueOf, type ReceiptDeps } from '../../plugins/receipt-mail';
import { getSettings } from '../../plugins/settings';

export type ClubMail = ReceiptDeps;

export type ClubReceipt = {
  kind: 'enrolment' | 'renewal' | 'renewal_failed' | 'chargeback';
  clubName: string;
  amountCents: number;
  currency: string;
  /** The plan, e.g. "1000 credits a month", or the provider's decline message. */
  detail: string;
  /** A renewal the bank wants authenticated: the Charge the customer completes by the link. */
  authenticateChargeId?: number | null;
};

const COPY: Record<ClubReceipt['kind'], { subject: string; heading: string; label: string }> = {
  enrolment: {
    subject: 'Welcome to the {club}',
    heading: 'Welcome to the {club}',
    label: 'Charged today',
  },
  renewal: {
    subject: 'Your {club} renewal receipt',
    heading: 'Your membership is renewed',
    label: 'Charged',
  },
  renewal_failed: {
    subject: 'Your {club} renewal payment failed',
    heading: 'We could not renew your membership',
    label: 'Amount due',
  },
  chargeback: {
    subject: 'Your {club} cancellation receipt',
    heading: 'Your membership is cancelled',
    label: 'Discounts charged back',
  },
};

/** The club's money events as receipts (docs/decisions/0039). A mail failure is only logged. */
export async function sendClubReceipt(
  db: Db,
  mail: ClubMail | undefined,
  userId: number,
  r: ClubReceipt,
): Promise<void> {
  if (!mail) return;
  try {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user?.email) return;
    const copy = COPY[r.kind];
    const fill = (s: string) => s.replace('{club}', r.clubName);
    const failed = r.kind === 'renewal_failed';
    const authenticate = failed && r.authenticateChargeId ? r.authenticateChargeId : null;
    await mail.mailer.send(
      await receiptMail({
        to: user.email,
        subject: fill(copy.subject),
        venue: venueOf(await getSettings(db), mail.publicUrl),
        heading: fill(copy.heading),
        paragraphs: authenticate
          ? [
              'Your bank asks you to authenticate this payment before it goes through.',
              'Until you do, your membership is not in good standing and your credits wait.',
            ]
          : failed
            ? [
                `Your card was not charged: ${r.detail}`,
                'We will try again tomorrow. Until then your credits wait; update your card to keep racing.',
              ]
            : [r.detail],
        rows: [[copy.label, formatMoney(r.amountCents, r.currency)]],
        button: authenticate
          ? { label: 'Authenticate the payment', href: `/charges/${authenticate}/authenticate` }
          : failed
            ? { label: 'Update your card', href: '/dashboard' }
            : { label: 'Your transactions', href: '/dashboard' },
      }),
    );
  } catch (error) {
    mail.logError(error, 'club receipt mail failed');
  }
}
