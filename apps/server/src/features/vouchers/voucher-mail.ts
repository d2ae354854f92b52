import { centsToDollars } from '@paddock/contract/charges';
import type { MailMessage } from '../../plugins/mail';
import escapeHtml from 'escape-html';

export type VoucherMailInput = {
  to: string;
  code: string;
  amountCents: number;
  /** Set when the buyer sends it to someone else. */
  gift: { fromName: string; comments: string } | null;
  companyName: string;
  publicUrl: string;
};

/** ABCDEFGHJKLM → ABCD-EFGH-JKLM: easier to read out and type (dashes are ignored on entry). */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/**
 * The gift voucher e-mail: the amount, the code, who sent it and their message, and how to
 * spend it. Plain text and a self-contained HTML version (inline styles, tables: what mail
 * clients render alike). Everything the buyer typed is escaped.
 */
export function voucherMail(input: VoucherMailInput): MailMessage {
  const amount = `$${centsToDollars(input.amountCents)}`;
  const code = groupedCode(input.code);
  const bookUrl = `${input.publicUrl}/reservations/all`;
  const balanceUrl = `${input.publicUrl}/vouchers/balance`;
  const company = input.companyName;
  // A name is one line wherever it goes (the subject is a header).
  const gift = input.gift && { ...input.gift, fromName: input.gift.fromName.replace(/\s+/g, ' ') };
  const subject = gift
    ? `${gift.fromName} sent you a ${amount} ${company} gift voucher`
    : `Your ${amount} ${company} gift voucher`;
  const headline = gift ? `${gift.fromName} sent you a gift voucher` : 'Your gift voucher is ready';

  const text = [
    headline,
    '',
    `Amount: ${amount}`,
    `Code: ${code}`,
    ...(gift?.comments ? ['', `Message from ${gift.fromName}:`, gift.comments] : []),
    '',
    `Book a simulator at ${bookUrl} and enter the code at checkout.`,
    `Check what is left on it at any time: ${balanceUrl}`,
    '',
    company,
  ].join('\n');

  const e = escapeHtml;
  const message = gift?.comments
    ? `<tr><td style="padding:0 32px 24px">
        <p style="margin:0 0 6px;font-size:13px;color:#6c757d;text-transform:uppercase;letter-spacing:.08em">Message from ${e(gift.fromName)}</p>
        <p style="margin:0;padding:14px 16px;background:#f4f5f7;border-left:4px solid #d6001c;border-radius:4px;font-size:16px;line-height:1.5;color:#212529">${e(gift.comments).replace(/\n/g, '<br>')}</p>
      </td></tr>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#eceef1;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#eceef1;padding:24px 0">
    <tr><td align="center">
      <table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:10px;overflow:hidden">
        <tr><td style="background:#111418;padding:20px 32px;color:#ffffff;font-size:18px;font-weight:700;letter-spacing:.04em">${e(company)}</td></tr>
        <tr><td style="padding:32px 32px 8px">
          <h1 style="margin:0 0 8px;font-size:24px;line-height:1.3;color:#111418">${e(headline)}</h1>
          <p style="margin:0;font-size:16px;color:#495057">A gift voucher for sim racing at ${e(company)}.</p>
        </td></tr>
        <tr><td style="padding:24px 32px">
          <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border:2px dashed #d6001c;border-radius:8px">
            <tr><td align="center" style="padding:24px 16px">
              <p style="margin:0;font-size:40px;font-weight:800;color:#111418">${e(amount)}</p>
              <p style="margin:12px 0 4px;font-size:13px;color:#6c757d;text-transform:uppercase;letter-spacing:.08em">Voucher code</p>
              <p style="margin:0;font-family:'SFMono-Regular',Menlo,Consolas,monospace;font-size:26px;font-weight:700;letter-spacing:.12em;color:#d6001c">${e(code)}</p>
            </td></tr>
          </table>
        </td></tr>
        ${message}
        <tr><td style="padding:0 32px 32px">
          <p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:#212529">Book a simulator and enter the code at checkout; whatever is left stays on the voucher for next time.</p>
          <a href="${e(bookUrl)}" style="display:inline-block;background:#d6001c;color:#ffffff;text-decoration:none;font-weight:700;padding:12px 22px;border-radius:6px">Book Now</a>
          <p style="margin:20px 0 0;font-size:14px;color:#6c757d">Check its balance any time at <a href="${e(balanceUrl)}" style="color:#0b5ed7">${e(balanceUrl)}</a>.</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>`;
  return { to: input.to, subject, text, html };
}
