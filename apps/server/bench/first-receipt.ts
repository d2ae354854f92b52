// The first receipt after a start (decision 0066): how long the process's event loop is blocked
// while it is rendered, and how long a timer due every 5 ms (a stand-in for every other request
// of the instance) waits at worst. Run in a fresh process: `npx tsx bench/first-receipt.ts`;
// with `--warm` the renderer's thread is started first, as the server does after it listens.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { receiptMail, type Receipt } from '../src/plugins/receipt-mail';
import { warmReceiptRenderer } from '../src/plugins/receipt-renderer';

const receipt: Receipt = {
  to: 'alice@example.com',
  subject: 'Your booking at Main Street is confirmed',
  venue: { name: 'Paddock', logoUrl: '/logo.png', publicUrl: 'https://paddock.example' },
  heading: 'Your booking is confirmed',
  paragraphs: ['Hi Alice,', 'Your booking at Main Street is confirmed.'],
  rows: [
    ['Venue', 'Main Street, 1 High St'],
    ['Booking', '#123'],
  ],
  lines: ['Rig 1: Mon, Nov 23, 2026, 10:00 AM to 10:30 AM (GMT)'],
  button: { label: 'Your reservations', href: '/dashboard' },
  notes: ['To cancel a booking, open your dashboard.'],
};

async function measure(label: string, run: () => Promise<unknown>) {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let worst = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  loop.enable();
  const started = performance.now();
  await run();
  const took = performance.now() - started;
  loop.disable();
  clearInterval(tick);
  console.log(
    `${label}: ${took.toFixed(0)} ms to render; event loop blocked at most ` +
      `${(loop.max / 1e6).toFixed(0)} ms; a 5 ms timer late by at most ${worst.toFixed(0)} ms`,
  );
}

if (process.argv.includes('--warm')) await measure('warm-up after listen', warmReceiptRenderer);
await measure('first receipt', () => receiptMail(receipt));
await measure('second receipt, same layout', () =>
  receiptMail({ ...receipt, to: 'bob@example.com' }),
);
await measure('first receipt of a new layout', () =>
  receiptMail({ ...receipt, lines: [...receipt.lines!, 'Rig 2: later'] }),
);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
console.log(`RSS ${mb(process.memoryUsage().rss)}`);
process.exit(0);
