import escapeHtml from 'escape-html';
import type { Mailer, MailMessage } from './mail';

// MJML and html-to-text are loaded with the first receipt, not at start-up: together they are
// about 75 MB of resident memory that an instance which never mails should not carry (0049).
const mjmlModule = () => import('mjml');
const htmlToText = () => import('html-to-text');

/** What a feature needs to mail receipts; without it (some tests, scripts) nothing is mailed. */
export type ReceiptDeps = {
  mailer: Mailer;
  publicUrl: string;
  logError: (error: unknown, message: string) => void;
};

/** Who sends it: the venue's name, its logo, and where the site is (PUBLIC_URL). */
export type Venue = { name: string; logoUrl: string; publicUrl: string };

/**
 * One receipt (docs/decisions/0039): a heading, a few paragraphs, label/value rows (amounts
 * already formatted in their currency), optional bullet lines and a button. Rendered once with
 * MJML; the plain-text part is the same mail converted by html-to-text, so the two never differ.
 */
export type Receipt = {
  to: string;
  subject: string;
  venue: Venue;
  heading: string;
  paragraphs: string[];
  rows?: [label: string, value: string][];
  lines?: string[];
  /** A path under PUBLIC_URL (e.g. `/reservations`) or an absolute URL. */
  button?: { label: string; href: string };
  /** Smaller text after the button (policies, how to get help). */
  notes?: string[];
  attachments?: MailMessage['attachments'];
};

/** The sender of every receipt, from the venue settings. */
export function venueOf(
  settings: { company_name: string; logo_url: string },
  publicUrl: string,
): Venue {
  return { name: settings.company_name, logoUrl: settings.logo_url, publicUrl };
}

/** A path under PUBLIC_URL, absolute; an absolute URL stays as it is. */
export function publicLink(publicUrl: string, href: string): string {
  if (/^https?:\/\//i.test(href)) return href;
  return `${publicUrl.replace(/\/+$/, '')}/${href.replace(/^\/+/, '')}`;
}

const e = escapeHtml;
const TEXT = 'color="#212529" font-size="16px" line-height="24px"';

export async function receiptMail(r: Receipt): Promise<MailMessage> {
  const { venue } = r;
  const logo = venue.logoUrl
    ? `<mj-image src="${e(publicLink(venue.publicUrl, venue.logoUrl))}" alt="${e(venue.name)}" width="160px" align="left" padding="0 0 8px" />`
    : '';
  const rows = r.rows?.length
    ? `<mj-table ${TEXT} padding="8px 25px">${r.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:4px 0">${e(label)}: </td><td style="padding:4px 0;text-align:right;font-weight:600">${e(value)}</td></tr>`,
        )
        .join('')}</mj-table>`
    : '';
  const lines = r.lines?.length
    ? `<mj-text ${TEXT}><ul>${r.lines.map((l) => `<li>${e(l)}</li>`).join('')}</ul></mj-text>`
    : '';
  const button = r.button
    ? `<mj-button href="${e(publicLink(venue.publicUrl, r.button.href))}" background-color="#d6001c" color="#ffffff" font-weight="700" align="left">${e(r.button.label)}</mj-button>`
    : '';
  const notes = (r.notes ?? [])
    .map((n) => `<mj-text color="#6c757d" font-size="14px" line-height="20px">${e(n)}</mj-text>`)
    .join('');
  const source = `<mjml lang="en">
  <mj-head>
    <mj-title>${e(r.subject)}</mj-title>
    <mj-attributes><mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#eceef1">
    <mj-section background-color="#111418">
      <mj-column>
        ${logo}
        <mj-text color="#ffffff" font-size="18px" font-weight="700">${e(venue.name)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-text color="#111418" font-size="24px" line-height="32px" font-weight="700"><h1 style="margin:0;font-size:24px">${e(r.heading)}</h1></mj-text>
        ${r.paragraphs.map((p) => `<mj-text ${TEXT}>${e(p).replace(/\n/g, '<br>')}</mj-text>`).join('')}
        ${rows}
        ${lines}
        ${button}
        ${notes}
        <mj-text color="#6c757d" font-size="14px">${e(venue.name)}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const [{ default: mjml2html }, { convert }] = await Promise.all([mjmlModule(), htmlToText()]);
  const { html, errors } = await mjml2html(source, { validationLevel: 'strict' });
  if (errors.length) throw new Error(`receipt template: ${errors[0].formattedMessage}`);
  const text = convert(html, {
    wordwrap: 100,
    selectors: [
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'title', format: 'skip' },
    ],
  });
  return { to: r.to, subject: r.subject, html, text, attachments: r.attachments };
}
