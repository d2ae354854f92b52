import escapeHtml from 'escape-html';
import type { Mailer, MailMessage } from './mail';
import { htmlToText, renderMjml, TEXT_OPTIONS, type Rendered } from './receipt-renderer';

// MJML and html-to-text run in the renderer's worker thread, never on this event loop (0066),
// and are loaded there only when needed: about 75 MB that an instance which never mails does
// not carry (0049).

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

const TEXT = 'color="#212529" font-size="16px" line-height="24px"';

/**
 * The MJML source of a receipt. Every value goes through `slot`, already escaped (and, for
 * paragraphs, with its line breaks as `<br>`): the direct render passes it through, the compiled
 * render puts a placeholder in its place (docs/decisions/0047).
 */
function receiptSource(r: Receipt, slot: (escaped: string) => string): string {
  const v = (s: string) => slot(escapeHtml(s));
  const { venue } = r;
  const logo = venue.logoUrl
    ? `<mj-image src="${v(publicLink(venue.publicUrl, venue.logoUrl))}" alt="${v(venue.name)}" width="160px" align="left" padding="0 0 8px" />`
    : '';
  const rows = r.rows?.length
    ? `<mj-table ${TEXT} padding="8px 25px">${r.rows
        .map(
          ([label, value]) =>
            `<tr class="pdk-row"><td style="padding:4px 0">${v(label)}: </td><td style="padding:4px 0;text-align:right;font-weight:600">${v(value)}</td></tr>`,
        )
        .join('')}</mj-table>`
    : '';
  const lines = r.lines?.length
    ? `<mj-text ${TEXT}><ul>${r.lines.map((l) => `<li>${v(l)}</li>`).join('')}</ul></mj-text>`
    : '';
  const button = r.button
    ? `<mj-button href="${v(publicLink(venue.publicUrl, r.button.href))}" background-color="#d6001c" color="#ffffff" font-weight="700" align="left">${v(r.button.label)}</mj-button>`
    : '';
  const notes = (r.notes ?? [])
    .map((n) => `<mj-text color="#6c757d" font-size="14px" line-height="20px">${v(n)}</mj-text>`)
    .join('');
  return `<mjml lang="en">
  <mj-head>
    <mj-title>${v(r.subject)}</mj-title>
    <mj-attributes><mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#eceef1">
    <mj-section background-color="#111418">
      <mj-column>
        ${logo}
        <mj-text color="#ffffff" font-size="18px" font-weight="700">${v(venue.name)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-text color="#111418" font-size="24px" line-height="32px" font-weight="700"><h1 style="margin:0;font-size:24px">${v(r.heading)}</h1></mj-text>
        ${r.paragraphs.map((p) => `<mj-text ${TEXT}>${slot(escapeHtml(p).replace(/\n/g, '<br>'))}</mj-text>`).join('')}
        ${rows}
        ${lines}
        ${button}
        ${notes}
        <mj-text color="#6c757d" font-size="14px">${v(venue.name)}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

const WORDWRAP = TEXT_OPTIONS.wordwrap;

async function message(r: Receipt, html: string, text?: string): Promise<MailMessage> {
  text ??= await htmlToText(html);
  return { to: r.to, subject: r.subject, html, text, attachments: r.attachments };
}

/** The reference render: the receipt's own MJML source through MJML, every time (~15-100 ms). */
export async function renderReceiptDirect(r: Receipt): Promise<MailMessage> {
  receiptRenders.direct++;
  const { html, text } = await renderMjml(receiptSource(r, (s) => s));
  return message(r, html, text);
}

/**
 * A layout compiled once: the HTML MJML made of the source with placeholders, cut at them.
 * `parts[i]` comes before value `order[i]` (a value can be there twice: the subject is the
 * <title> and the body's aria-label); null when a placeholder did not come through (then that
 * layout is rendered directly).
 */
type Compiled = { parts: string[]; order: number[]; text: TextLayout | null } | null;

/**
 * The text part of a layout, cut at its placeholders like the HTML (decision 0059): what
 * html-to-text makes of the layout's HTML, where a value's text is the value itself as long as
 * it has no whitespace but single spaces (html-to-text collapses the rest) and no line comes out
 * longer than the word wrap, or is a block's whole text (html-to-text's greedy word wrap,
 * done here the same way). `links` are the button's label and URL: html-to-text hides a URL
 * that equals its label. Null when the layout's own text was wrapped.
 */
type TextLayout = {
  parts: string[];
  order: number[];
  links: [label: number, href: number][];
  /** Values that are a block's whole text (a heading, a paragraph, a note): wrapped here. */
  alone: Set<number>;
};

const TOKEN = /pdkslot(\d+)x/g;
const LAYOUTS = 64;
const layouts = new Map<string, Promise<Compiled>>();
/** How receipts were rendered since the start (the test checks the fast path is the one taken). */
export const receiptRenders = { compiled: 0, direct: 0, compiledText: 0 };

async function compileLayout(source: string, slots: number): Promise<Compiled> {
  const rendered = await renderMjml(source);
  const { parts, order } = cut(rendered.html);
  return new Set(order).size === slots ? { parts, order, text: compileText(rendered) } : null;
}

function cut(text: string): { parts: string[]; order: number[] } {
  const pieces = text.split(TOKEN);
  const parts: string[] = [];
  const order: number[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    parts.push(pieces[i]);
    if (i + 1 < pieces.length) order.push(Number(pieces[i + 1]));
  }
  return { parts, order };
}

function compileText({ text, unwrapped }: Rendered): TextLayout | null {
  if (text !== unwrapped) return null;
  const links = [...text.matchAll(/pdkslot(\d+)x \[pdkslot(\d+)x\]/g)].map(
    (m) => [Number(m[1]), Number(m[2])] as [number, number],
  );
  const alone = new Set([...text.matchAll(/^pdkslot(\d+)x$/gm)].map((m) => Number(m[1])));
  return { ...cut(text), links, alone };
}

/**
 * html-to-text's word wrap of a block's text of single-spaced words none longer than the line:
 * as many words on a line as fit (InlineTextBuilder.pushWord).
 */
function wrapped(value: string): string | undefined {
  if (value.length <= WORDWRAP) return value;
  let text = '';
  let line = '';
  for (const word of value.split(' ')) {
    if (word.length > WORDWRAP) return undefined;
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= WORDWRAP) line += ' ' + word;
    else {
      text += line + '\n';
      line = word;
    }
  }
  return text + line;
}

const UNESCAPE: Record<string, string> = {
  '&quot;': '"',
  '&amp;': '&',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
/** A value as text: escape-html's five entities back (its output has no other `&`). */
const unescape = (escaped: string) =>
  escaped.replace(/&(?:quot|amp|#39|lt|gt);/g, (e) => UNESCAPE[e]);

/** Words separated by single spaces; html-to-text's whitespace (incl. U+200B) changes others. */
const TEXT_PLAIN = /^[^\s\u200b]+(?: [^\s\u200b]+)*$/;
const LINK = /^https?:\/\/[^\s\u200b]+$/i;

/** The text part from the compiled layout; undefined where html-to-text must make it. */
function compiledText(layout: TextLayout | null, values: string[]): string | undefined {
  if (!layout) return undefined;
  const raw: string[] = [];
  for (const i of layout.order) {
    // Escaped, a value has no `<` but the `<br>` a paragraph's line break becomes.
    if (values[i].includes('<')) return undefined;
    raw[i] ??= unescape(values[i]);
    if (!TEXT_PLAIN.test(raw[i])) return undefined;
  }
  for (const [label, href] of layout.links)
    if (raw[label] === raw[href] || !LINK.test(raw[href])) return undefined;
  let text = layout.parts[0];
  for (let i = 0; i < layout.order.length; i++) {
    const n = layout.order[i];
    const value = layout.alone.has(n) ? wrapped(raw[n]) : raw[n];
    if (value === undefined) return undefined;
    text += value + layout.parts[i + 1];
  }
  for (const line of text.split('\n')) if (line.length > WORDWRAP) return undefined;
  receiptRenders.compiledText++;
  return text;
}

/**
 * What MJML would do to a value is nothing as long as it is not empty and has no whitespace at
 * either end: it trims the content of mj-text, mj-button and mj-title, and an empty content or
 * attribute can change the markup. Any other value takes the direct render.
 */
const PLAIN = /^\S(?:[\s\S]*\S)?$/;

/**
 * A receipt (docs/decisions/0039) in HTML and text. Its layout (logo or not, how many
 * paragraphs, rows, lines, notes, button or not) goes through MJML once; each receipt of that
 * layout is its escaped values put into the compiled HTML (docs/decisions/0047). The output is
 * the same as `renderReceiptDirect`'s, byte for byte (receipt-mail.test.ts).
 */
export async function receiptMail(r: Receipt): Promise<MailMessage> {
  const values: string[] = [];
  let plain = true;
  const key = receiptSource(r, (s) => {
    if (!PLAIN.test(s)) plain = false;
    return `pdkslot${values.push(s) - 1}x`;
  });
  if (!plain) return renderReceiptDirect(r);
  let layout = layouts.get(key);
  if (layout) {
    layouts.delete(key);
  } else {
    layout = compileLayout(key, values.length);
    layout.catch(() => layouts.delete(key));
    if (layouts.size >= LAYOUTS) layouts.delete(layouts.keys().next().value as string);
  }
  layouts.set(key, layout);
  const compiled = await layout;
  if (!compiled) return renderReceiptDirect(r);
  receiptRenders.compiled++;
  let html = compiled.parts[0];
  for (let i = 0; i < compiled.order.length; i++)
    html += values[compiled.order[i]] + compiled.parts[i + 1];
  return message(r, html, compiledText(compiled.text, values));
}
