import type { MailMessage } from '../../plugins/mail';

export type RefundReceipt = {
  to: string;
  name: string;
  companyName: string;
  seatName: string;
  when: string;
  locationName: string;
  /** "$22.50 back to your Visa ending 4242", one per way the money goes back. */
  lines: string[];
  cardFailed: boolean;
  dashboardUrl: string;
  /** A move to a cheaper seat (the booking stands, the difference comes back), not a cancel. */
  moved?: boolean;
};

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The refund receipt, in text and HTML. */
export function refundMail(r: RefundReceipt): MailMessage {
  const failed = r.cardFailed
    ? 'The refund to your card was declined; we will try again and let you know.'
    : '';
  const what = r.moved ? 'moved there; the price difference comes back' : 'is cancelled';
  const text = [
    `Hi ${r.name},`,
    '',
    `Your reservation for ${r.seatName} at ${r.locationName} on ${r.when} ${what}.`,
    '',
    'What comes back:',
    ...r.lines.map((l) => `- ${l}`),
    ...(failed ? ['', failed] : []),
    '',
    `Your transactions: ${r.dashboardUrl}`,
    '',
    r.companyName,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>Hi ${escape(r.name)},</p>
<p>Your reservation for <strong>${escape(r.seatName)}</strong> at ${escape(r.locationName)} on ${escape(r.when)} ${escape(what)}.</p>
<p>What comes back:</p>
<ul>${r.lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul>
${failed ? `<p><strong>${escape(failed)}</strong></p>` : ''}
<p><a href="${escape(r.dashboardUrl)}">Your transactions</a></p>
<p>${escape(r.companyName)}</p>
</body></html>`;
  return { to: r.to, subject: `Refund receipt: ${r.seatName}, ${r.when}`, text, html };
}
