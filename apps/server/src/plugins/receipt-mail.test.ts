import { describe, expect, it } from 'vitest';
import {
  receiptMail,
  receiptRenders,
  renderReceiptDirect,
  type Receipt,
  type Venue,
} from './receipt-mail';

// The compiled render (one MJML run per layout, values put in) against the reference (MJML on
// each receipt's own source): the same html and text, byte for byte (docs/decisions/0047).

const venue: Venue = {
  name: 'Paddock Sim Racing',
  logoUrl: '/uploads/logo.png',
  publicUrl: 'https://paddock.example',
};
const noLogo: Venue = { ...venue, logoUrl: '' };
const nasty = `Tom & "Jerry's" <b>Garage</b> > 3 'quoted'`;

/** Every layout the features send (confirmation, vouchers, refunds, moves, club, balance). */
const FEATURES: Receipt[] = [
  {
    to: 'alice@example.com',
    subject: 'Your booking at Main Street is confirmed',
    venue,
    heading: 'Your booking is confirmed',
    paragraphs: ['Hi Alice,', 'Your booking at Main Street is confirmed.'],
    rows: [
      ['Venue', 'Main Street, 1 High St, London'],
      ['Times shown in', 'Europe/London'],
      ['Booking', '#123'],
      ['Total charged', '£25.00'],
    ],
    lines: [
      'Rig 1: Mon, Nov 23, 2026, 10:00 AM to 10:30 AM (GMT)',
      'Rig 2: Mon, Nov 23, 2026, 10:30 AM to 11:00 AM (GMT)',
      'Rig 3: Mon, Nov 23, 2026, 11:00 AM to 11:30 AM (GMT)',
    ],
    button: { label: 'Your reservations', href: '/dashboard' },
    notes: [
      'The attached calendar file adds every session to your calendar.',
      'Cancellation policy: Free cancellation up to 24 hours before.',
      'To cancel a booking, open your dashboard.',
    ],
    attachments: [
      { filename: 'booking.ics', content: 'BEGIN:VCALENDAR', contentType: 'text/calendar' },
    ],
  },
  {
    to: 'bob@example.com',
    subject: `${nasty} sent you a €50.00 Paddock gift voucher`,
    venue: noLogo,
    heading: `${nasty} sent you a gift voucher`,
    paragraphs: [
      'A gift voucher for sim racing at Paddock Sim Racing.',
      `Message from ${nasty}:\nHappy birthday!\n\n  Love, <Tom> & co.\r\nSee you 🏁 soon`,
    ],
    rows: [
      ['Amount', '€50.00'],
      ['Code', 'ABCD-EFGH-JKLM'],
    ],
    button: { label: 'Book Now', href: '/reservations/all' },
    notes: [
      'Book a simulator and enter the code at checkout; whatever is left stays on the voucher for next time.',
      'Check its balance any time at https://paddock.example/vouchers/balance',
    ],
  },
  {
    to: 'carol@example.com',
    subject: 'Receipt: your $20.00 Paddock gift voucher for dave@example.com',
    venue,
    heading: 'Thank you for your gift voucher',
    paragraphs: ['We e-mailed the voucher and its code to dave@example.com.'],
    rows: [
      ['Gift voucher', '$20.00'],
      ['Sent to', 'dave@example.com'],
      ['Charged to your card', '$20.00'],
    ],
    button: { label: 'Your transactions', href: '/dashboard' },
  },
  {
    to: 'erin@example.com',
    subject: 'Refund receipt: Rig 1, Mon, Nov 23, 10:00 AM (GMT)',
    venue,
    heading: 'Your reservation is cancelled',
    paragraphs: [
      'Hi Erin,',
      'Your reservation for Rig 1 at Main Street on Mon, Nov 23, 10:00 AM (GMT) is cancelled.',
      'What comes back:',
    ],
    lines: ['£22.50 back to your Visa ending 4242', '£2.50 back to your voucher ABCD-EFGH-JKLM'],
    rows: [['Times shown in', 'Europe/London']],
    button: { label: 'Your transactions', href: '/dashboard' },
    notes: ['The refund to your card was declined; we will try again and let you know.'],
  },
  {
    to: 'erin@example.com',
    subject: 'Refund receipt: Rig 1, Mon, Nov 23, 10:00 AM (GMT)',
    venue,
    heading: 'Your reservation has moved',
    paragraphs: [
      'Hi Erin,',
      'Your reservation moved there; the price difference comes back.',
      'What comes back:',
    ],
    lines: ['£5.00 back to your Visa ending 4242'],
    rows: [['Times shown in', 'Europe/London']],
    button: { label: 'Your transactions', href: '/dashboard' },
    notes: [],
  },
  {
    to: 'frank@example.com',
    subject: 'Receipt: Pro Rig, Tue, Nov 24, 9:00 PM (CET)',
    venue,
    heading: 'Your reservation has moved',
    paragraphs: [
      'Hi Frank,',
      'Your reservation is now for Pro Rig at Zürich on Tue, Nov 24, 9:00 PM (CET). The new seat costs more; the difference was charged to your Mastercard ending 4444.',
    ],
    rows: [
      ['Price difference charged', 'CHF 10.00'],
      ['Of which tax', 'CHF 0.77'],
      ['Times shown in', 'Europe/Zurich'],
    ],
    button: { label: 'Your transactions', href: '/dashboard' },
    notes: ['Cancelling inside the free window gives this back too, with the rest.'],
  },
  {
    to: 'gina@example.com',
    subject: 'Your Gold Club renewal failed',
    venue,
    heading: 'We could not renew Gold Club',
    paragraphs: [
      'Your card was not charged: Your card was declined.',
      'We will try again tomorrow. Until then your credits wait; update your card to keep racing.',
    ],
    rows: [['Monthly fee', '£30.00']],
    button: { label: 'Update your card', href: 'https://billing.example/cards?u=1&x="2"' },
  },
  {
    to: 'hank@example.com',
    subject: 'Receipt: outstanding balance of ¥3,000 paid',
    venue: { ...venue, logoUrl: 'https://cdn.example/logo.png?w=160&h="80"' },
    heading: 'Your outstanding balance is paid',
    paragraphs: ['Your saved card paid these bookings:'],
    lines: ['Rig 1, Mon, Nov 23, 10:00 AM at Tokyo (Asia/Tokyo): ¥3,000'],
    rows: [['Charged to your card', '¥3,000']],
    button: { label: 'Your transactions', href: '/dashboard' },
  },
];

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const PIECES = [
  'a',
  'Rig',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '<',
  '>',
  '&',
  '"',
  "'",
  '&amp;',
  '<br>',
  'é',
  'ß',
  'Zürich',
  '日本',
  '🏁',
  '\u00a0',
  'pdkslot0x',
  'pdkslot12x',
  'true',
  'false',
  '</mj-text>',
  '<!--',
  '-->',
  '<![endif]-->',
  '{{x}}',
  '$&',
  '$1',
  'http://x.test/?a=1&b=2',
  'x'.repeat(150),
  'word '.repeat(40),
];

function fuzzReceipts(count: number): Receipt[] {
  const rnd = random(14);
  const int = (n: number) => Math.floor(rnd() * n);
  // Most receipts have values like the features' (no space at either end); some, anything.
  let odd = false;
  const text = () => {
    const n = int(6);
    let s = '';
    for (let i = 0; i < n; i++) s += PIECES[int(PIECES.length)];
    return odd ? s : s.trim() || 'x';
  };
  const list = (max: number) => Array.from({ length: int(max + 1) }, text);
  return Array.from({ length: count }, (_, i) => {
    odd = rnd() < 0.25;
    return {
      to: `fuzz${i}@example.com`,
      subject: text(),
      venue: {
        name: text(),
        logoUrl: rnd() < 0.5 ? '' : rnd() < 0.5 ? '/logo.png' : `/${text()}`,
        publicUrl: rnd() < 0.8 ? 'https://paddock.example' : text(),
      },
      heading: text(),
      paragraphs: Array.from({ length: 1 + int(3) }, text),
      rows: rnd() < 0.2 ? undefined : Array.from({ length: int(5) }, () => [text(), text()]),
      lines: rnd() < 0.3 ? undefined : list(4),
      button:
        rnd() < 0.3 ? undefined : { label: text(), href: rnd() < 0.5 ? '/dashboard' : text() },
      notes: rnd() < 0.3 ? undefined : list(3),
    };
  });
}

async function expectSame(r: Receipt) {
  const direct = await renderReceiptDirect(r);
  // Twice: the first compiles the layout (or finds it), the second surely finds it.
  for (let i = 0; i < 2; i++) {
    const fast = await receiptMail(r);
    expect(fast.html).toBe(direct.html);
    expect(fast.text).toBe(direct.text);
    expect(fast).toEqual(direct);
  }
  return direct;
}

describe('receipt mail', () => {
  it("renders every feature's receipt as the direct MJML render does, through the compiled layouts", async () => {
    const before = { ...receiptRenders };
    for (const r of FEATURES) await expectSame(r);
    // Each of these values is plain: none of them took the direct path inside receiptMail.
    expect(receiptRenders.direct - before.direct).toBe(FEATURES.length);
    expect(receiptRenders.compiled - before.compiled).toBe(FEATURES.length * 2);
    // The text parts too, but where a value has a line break (the gift message): html-to-text
    // makes that one.
    expect(receiptRenders.compiledText - before.compiledText).toBe((FEATURES.length - 1) * 2);
  });

  it('escapes what the customer typed, keeps their line breaks, and links the button', async () => {
    const mail = await expectSame(FEATURES[1]);
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;Garage&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Garage</b>');
    expect(mail.html).toContain('Happy birthday!<br><br>');
    expect(mail.text).toContain('Happy birthday!');
    const gina = await expectSame(FEATURES[6]);
    expect(gina.html).toContain('href="https://billing.example/cards?u=1&amp;x=&quot;2&quot;"');
    expect(gina.html).toContain('<title>Your Gold Club renewal failed</title>');
  });

  it('puts each row on its own line of the text part, and fetches no web font (issue 30)', async () => {
    for (const r of FEATURES) {
      const mail = await expectSame(r);
      const lines = mail.text.split('\n');
      for (const [label, value] of r.rows ?? [])
        if (!/\s{2}|\n/.test(label + value)) expect(lines).toContain(`${label}: ${value}`);
      // MJML links Google Fonts when a font family names one (Roboto): never in a receipt.
      expect(mail.html).not.toMatch(/<link\b|@import|fonts\.googleapis|fonts\.gstatic/i);
    }
  });

  it('renders any values, odd ones included, as the direct render does', async () => {
    const before = { ...receiptRenders };
    const receipts = fuzzReceipts(120);
    for (const r of receipts) await expectSame(r);
    // The plain ones (three in four) went through a compiled layout, twice each.
    expect(receiptRenders.compiled - before.compiled).toBeGreaterThan(receipts.length);
  }, 120_000);

  it('makes the text part from the compiled layout only where html-to-text would make the same', async () => {
    // Values of single-spaced words whose lines land on either side of the 100-column word
    // wrap, with markup characters, and a button whose label is its own URL (html-to-text then
    // leaves the URL out).
    const rnd = random(59);
    const int = (n: number) => Math.floor(rnd() * n);
    const words = (length: number) => {
      let s = 'A';
      while (s.length < length)
        s += rnd() < 0.18 ? ' x' : ['b', '&', '<', '>', '"', "'", 'é', '🏁', ':'][int(9)];
      return s;
    };
    const before = { ...receiptRenders };
    const receipts: Receipt[] = Array.from({ length: 60 }, (_, i) => {
      const url = 'https://paddock.example/dashboard';
      return {
        to: `wrap${i}@example.com`,
        subject: words(30),
        venue: i % 2 ? venue : noLogo,
        heading: words(20 + int(90)),
        paragraphs: [words(90 + int(20)), words(10), words(150 + int(200))],
        rows: i % 3 ? [[words(10), words(i % 2 ? 70 + int(30) : 40)]] : undefined,
        lines: [words(i % 2 ? 95 + int(10) : 50), words(40)],
        button: i % 4 ? { label: words(10), href: '/dashboard' } : { label: url, href: url },
        notes: [
          words(97 + int(6)),
          words(180 + int(150)),
          `${'y'.repeat(95 + int(10))} ${words(80)}`,
        ],
      };
    });
    for (const r of receipts) await expectSame(r);
    expect(receiptRenders.compiledText - before.compiledText).toBeGreaterThan(0);
    expect(
      receiptRenders.compiled - before.compiled - receiptRenders.compiledText + before.compiledText,
    ).toBeGreaterThan(0);
  }, 120_000);
});
