// `npm run bench`: processing a quoted checkout of one seat, paid with a saved card through the
// local payment provider (issue 14), each request a checkout of its own. Measured against the
// same bare raw-INSERT route as the booking.
import { DateTime } from 'luxon';
import autocannon from 'autocannon';
import type { Database } from '../src/db/client';
import type { Tokens } from '../src/plugins/auth';
import { createUser } from '../src/test/factories';
import { createCalendarType, createLocation, createSeat } from '../src/test/booking-factories';
import { sampleWaits } from './pg-waits';
import { cpuTicks, TICK_MS } from './harness';
import { receiptMail, renderReceiptDirect, type Receipt } from '../src/plugins/receipt-mail';

type Load<Row> = (title: string, opts: autocannon.Options) => Promise<Row>;

/** How many checkouts are quoted beforehand: more than a run can process. */
const CHECKOUTS = 12_000;
const CONNECTIONS = 8;

/** CPU seconds a process and its children have used. */
function cpuSeconds(pid: number | undefined): number {
  return pid ? (cpuTicks(pid) * TICK_MS) / 1000 : 0;
}

/** A bench location with quoted one-seat checkouts, each for a seat-slot of its own. */
export type QuotedCheckouts = {
  /** The checkouts in the order to process them, with their customer's Authorization. */
  next: () => { id: number; authorization: string };
  customers: number;
};

/**
 * Quotes CHECKOUTS one-seat checkouts for `customers` customers (each with a saved card), the
 * checkouts dealt to them in turn so that consecutive requests are different customers'.
 */
export async function quoteCheckouts(opts: {
  database: Database;
  tokens: Tokens;
  appBase: string;
  customers: number;
  name: string;
}): Promise<QuotedCheckouts> {
  const ctx = { db: opts.database.db, deps: { tokens: opts.tokens } };
  // A location of its own, so the booking run's slots and the availability figures stay apart.
  const location = await createLocation(ctx, { name: opts.name, timezone: 'UTC' });
  const type = await createCalendarType(ctx, { name: `${opts.name} Cockpit` });
  const seats = [];
  for (let i = 0; i < 10; i++)
    seats.push(
      await createSeat(ctx, { locationId: location.id, typeId: type.id, costCents: 2500 }),
    );
  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(opts.appBase + path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const customers: { id: number; authorization: string }[] = [];
  for (let c = 0; c < opts.customers; c++) {
    const customer = await createUser(ctx);
    const authorization = `Bearer ${customer.token}`;
    const token = await post(
      '/api/payments/local/tokens',
      {
        number: '4242424242424242',
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        cvc: '123',
        postal_code: '94107',
      },
      { 'content-type': 'application/json' },
    );
    await post(
      '/api/users/me/card',
      { token: token.id },
      { authorization, 'content-type': 'application/json' },
    );
    customers.push({ id: customer.id, authorization });
  }

  // One quote through the API; the rest are copies of it, each for a seat-slot of its own.
  const first = DateTime.utc().startOf('day').plus({ days: 1 });
  const items = [];
  for (let n = 0; items.length < CHECKOUTS; n++) {
    const start = first.plus({ minutes: 30 * Math.floor(n / seats.length) });
    items.push({ calendar: seats[n % seats.length].id, time: start });
  }
  const slotOf = (time: DateTime) => time.toFormat("yyyy-MM-dd'T'HH:mm");
  const quoted = await post(
    '/api/reservations/checkouts/quote',
    { reservations: [{ calendar: items[0].calendar, slot: slotOf(items[0].time) }] },
    { authorization: customers[0].authorization, 'content-type': 'application/json' },
  );
  const template = quoted.checkout_id as number;
  const copies = await opts.database.pool.query<{ id: number }>(
    `insert into checkouts (user_id, status, location_id, items, amounts, quote)
     select (x ->> 'user')::int, 'quoted', c.location_id,
       jsonb_build_array(c.items -> 0 || jsonb_build_object(
         'calendarId', (x ->> 'calendar')::int, 'slot', x ->> 'slot', 'time', x ->> 'time')),
       c.amounts, c.quote
     from checkouts c, jsonb_array_elements($1::jsonb) with ordinality as e(x, n)
     where c.id = $2 order by e.n returning id`,
    [
      JSON.stringify(
        items.slice(1).map((i, n) => ({
          calendar: i.calendar,
          slot: slotOf(i.time),
          time: i.time.toISO(),
          user: customers[(n + 1) % customers.length].id,
        })),
      ),
      template,
    ],
  );
  const ids = [template, ...copies.rows.map((r) => r.id)];
  let next = 0;
  return {
    customers: customers.length,
    next: () => {
      const n = next++ % ids.length;
      return { id: ids[n], authorization: customers[n % customers.length].authorization };
    },
  };
}

/** Checkouts processed before a row is measured (decision 0062). */
const WARM_UP = 200;

/**
 * Processes WARM_UP checkouts, unmeasured, and waits for their confirmations: the app's first
 * confirmation loads and compiles the mail layout (MJML, ~1 s of one blocked event loop on this
 * VM, decision 0049 keeps it out of start-up), which would otherwise land inside the measured
 * seconds of whichever row comes first and make it a figure of that one-time cost.
 */
export async function warmUp(database: Database, appBase: string, quoted: QuotedCheckouts) {
  await autocannon({ ...processLoad(appBase, quoted), amount: WARM_UP });
  await receiptsSent(database);
}

/** The load of processing quoted checkouts, one request each. */
export function processLoad(
  appBase: string,
  quoted: QuotedCheckouts,
): autocannon.Options & { connections: number } {
  return {
    url: appBase,
    connections: CONNECTIONS,
    requests: [
      {
        method: 'POST',
        setupRequest: (r) => {
          const { id, authorization } = quoted.next();
          return {
            ...r,
            path: `/api/reservations/checkouts/${id}/process`,
            headers: { ...r.headers, authorization },
          };
        },
      },
    ],
  };
}

/**
 * Processes quoted checkouts under load: all of ONE customer's (the original row), or, with
 * `customers` > 1, dealt in turn to that many customers (a venue's checkouts are many people's).
 */
export async function checkoutBenchmark<Row extends { rps: number }>(opts: {
  database: Database;
  tokens: Tokens;
  appBase: string;
  load: Load<Row>;
  /** The app instance's process: its CPU per checkout is reported. */
  appPid?: number;
  customers?: number;
}): Promise<Row> {
  const customers = opts.customers ?? 1;
  const quoted = await quoteCheckouts({
    ...opts,
    customers,
    name: customers > 1 ? 'Bench Checkouts (many customers)' : 'Bench Checkouts',
  });
  await warmUp(opts.database, opts.appBase, quoted);
  // Fewer connections than the other rows: each processing renders and stores its confirmation
  // mail (before docs/decisions/0047, with 32 waiting on one event loop no answer came back).
  const paidBefore = await paidCount(opts.database);
  const cpuBefore = cpuSeconds(opts.appPid);
  const waits = sampleWaits(opts.database);
  const who = customers > 1 ? `, ${customers} customers` : ', one customer';
  const row = await opts.load(
    `POST /reservations/checkouts/{id}/process (${CONNECTIONS} conn.${who})`,
    processLoad(opts.appBase, quoted),
  );
  const waited = await waits.stop();
  // The confirmations are the checkout's work too: their CPU counts once they are all sent
  // (decision 0059 sends them after the answers; 60 s at most).
  await receiptsSent(opts.database);
  const checkouts = (await paidCount(opts.database)) - paidBefore;
  const cpu = cpuSeconds(opts.appPid) - cpuBefore;
  if (opts.appPid && checkouts > 0)
    console.log(
      `checkout process${who}: ${((cpu * 1000) / checkouts).toFixed(1)} ms of the app's CPU per checkout, its confirmation included (${checkouts} checkouts, ${cpu.toFixed(1)} s); ${waited}`,
    );
  return row;
}

/** Waits (60 s at most) until no confirmation is owed. */
export async function receiptsSent(database: Database): Promise<void> {
  for (let waited = 0; waited < 600 && (await owedCount(database)) > 0; waited++)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

export async function paidCount(database: Database): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from checkouts where status = 'paid'`,
  );
  return rows[0].n;
}

async function owedCount(database: Database): Promise<number> {
  // Before decision 0059 there is no such table: nothing is ever owed.
  const { rows: exists } = await database.pool.query<{ t: string | null }>(
    `select to_regclass('receipts_owed')::text as t`,
  );
  if (!exists[0].t) return 0;
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from receipts_owed`,
  );
  return rows[0].n;
}

/**
 * CPU per receipt, in this process: a booking confirmation's layout through the compiled path
 * (each with values of its own) and through MJML directly (docs/decisions/0047).
 */
export async function receiptRenderFigure(): Promise<string> {
  const receipt = (n: number): Receipt => ({
    to: `racer${n}@example.com`,
    subject: 'Your booking at Bench Checkouts is confirmed',
    venue: { name: 'Paddock', logoUrl: '/uploads/logo.png', publicUrl: 'http://127.0.0.1' },
    heading: 'Your booking is confirmed',
    paragraphs: [`Hi Racer ${n},`, 'Your booking at Bench Checkouts is confirmed.'],
    rows: [
      ['Venue', 'Bench Checkouts'],
      ['Times shown in', 'UTC'],
      ['Booking', `#${n}`],
      ['Total charged', '$25.00'],
    ],
    lines: [`Seat ${n % 10}: Tue, Nov 24, 2026, 10:00 AM to 10:30 AM (UTC)`],
    button: { label: 'Your reservations', href: '/dashboard' },
    notes: ['The attached calendar file adds every session to your calendar.'],
  });
  const cpu = async (count: number, render: (r: Receipt) => Promise<unknown>) => {
    await render(receipt(0));
    const start = process.cpuUsage();
    for (let n = 1; n <= count; n++) await render(receipt(n));
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  };
  const compiled = await cpu(2000, receiptMail);
  const direct = await cpu(20, renderReceiptDirect);
  return `receipt render: ${compiled.toFixed(0)} µs of CPU per mail (direct MJML ${(direct / 1000).toFixed(1)} ms)`;
}
