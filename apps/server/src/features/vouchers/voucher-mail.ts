import { formatMoney } from '@paddock/contract/money';
import type { MailMessage } from '../../plugins/mail';
import { receiptMail, type Venue } from '../../plugins/receipt-mail';

export type VoucherMailInput = {
  to: string;
  code: string;
  amountCents: number;
  currency: string;
  /** Set when the buyer sends it to someone else. */
  gift: { fromName: string; comments: string } | null;
  venue: Venue;
};

/** ABCDEFGHJKLM → ABCD-EFGH-JKLM: easier to read out and type (dashes are ignored on entry). */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/** A name is one line wherever it goes (the subject is a header). */
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

/**
 * The gift voucher itself: to the recipient (with who sent it and their message) or, bought for
 * oneself, to the buyer as their receipt. Everything the buyer typed is escaped by the template.
 */
export function voucherMail(input: VoucherMailInput): Promise<MailMessage> {
  const amount = formatMoney(input.amountCents, input.currency);
  const company = input.venue.name;
  const gift = input.gift && { ...input.gift, fromName: oneLine(input.gift.fromName) };
  const subject = gift
    ? `${gift.fromName} sent you a ${amount} ${company} gift voucher`
    : `Your ${amount} ${company} gift voucher`;
  return receiptMail({
    to: input.to,
    subject,
    venue: input.venue,
    heading: gift ? `${gift.fromName} sent you a gift voucher` : 'Your gift voucher is ready',
    paragraphs: [
      `A gift voucher for sim racing at ${company}.`,
      ...(gift?.comments ? [`Message from ${gift.fromName}:\n${gift.comments}`] : []),
    ],
    rows: [
      ['Amount', amount],
      ['Code', groupedCode(input.code)],
    ],
    button: { label: 'Book Now', href: '/reservations/all' },
    notes: [
      'Book a simulator and enter the code at checkout; whatever is left stays on the voucher for next time.',
      `Check its balance any time at ${input.venue.publicUrl}/vouchers/balance`,
    ],
  });
}

/** The buyer's receipt for a voucher sent to someone else (the code went to the recipient). */
export function voucherBuyerReceipt(input: {
  to: string;
  recipient: string;
  amountCents: number;
  currency: string;
  venue: Venue;
}): Promise<MailMessage> {
  const amount = formatMoney(input.amountCents, input.currency);
  return receiptMail({
    to: input.to,
    subject: `Receipt: your ${amount} ${input.venue.name} gift voucher for ${input.recipient}`,
    venue: input.venue,
    heading: 'Thank you for your gift voucher',
    paragraphs: [`We e-mailed the voucher and its code to ${input.recipient}.`],
    rows: [
      ['Gift voucher', amount],
      ['Sent to', input.recipient],
      ['Charged to your card', amount],
    ],
    button: { label: 'Your transactions', href: '/dashboard' },
  });
}
