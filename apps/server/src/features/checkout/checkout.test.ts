import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { SLOT_TAKEN_MESSAGE } from '@paddock/contract/reservations';
import { VOUCHER_REJECTED_MESSAGE } from '@paddock/contract/checkout';
import { outboxMessages } from '../../db/schema/content';
import { charges, localCharges } from '../../db/schema/payments';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { receiptsSent, sentMail } from '../../test/sent-mail';
import { createVenue, futureDate } from '../../test/booking-factories';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let other: Awaited<ReturnType<typeof createVenue>>;
let staff: CreatedUser;
const zone = 'America/Los_Angeles';
const day = futureDate(5, zone);
const at = (hhmm: string) => `${day}T${hhmm}`;

beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, {
    name: 'Downtown',
    seats: 4,
    costCents: 4500,
    bookingFeeCents: 150,
    bookingFeesThreshold: 4,
    salesTaxRatePercent: '8.875',
    postBookingUrl: 'https://example.com/thanks',
  });
  other = await createVenue(t, { seats: 1 });
  staff = await createUser(t, { isStaff: true, permissions: ['vouchers.add_voucher'] });
});
afterAll(() => t.close());

const post = (url: string, user: CreatedUser | undefined, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: user ? bearer(user.token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const quote = (user: CreatedUser | undefined, payload: unknown) =>
  post('/api/reservations/checkouts/quote', user, payload);
const processIt = (user: CreatedUser, id: number) =>
  post(`/api/reservations/checkouts/${id}/process`, user);
const items = (seatIndexes: number[], hhmm: string) =>
  seatIndexes.map((i) => ({ calendar: venue.seats[i].id, slot: at(hhmm) }));
const voucher = async (amount_cents: number) =>
  (await post('/api/vouchers', staff, { amount_cents })).json().code as string;
const chargesFor = (checkoutId: number) =>
  t.db
    .select()
    .from(charges)
    .where(eq(charges.idempotencyKey, `checkout-${checkoutId}`));
const balanceOf = async (user: CreatedUser) =>
  (
    await t.app.inject({ method: 'GET', url: '/api/users/me/balance', headers: bearer(user.token) })
  ).json();

describe('POST /reservations/checkouts/quote', () => {
  it('prices seats with fees and tax in exactly the spec’s fields', async () => {
    const user = await createUser(t);
    const res = await quote(user, { reservations: items([0, 1], '18:00') });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      checkout_id: expect.any(Number),
      line_items: [0, 1].map((i) => ({
        calendar_name: `Sim ${i + 1}`,
        calendar_type_name: 'Pro Cockpit',
        calendar_cost_cents: 4500,
        calendar_qty: 1,
        calendar_total_cents: 4500,
        calendar_booking_fee_cents: 150,
        calendar_location: venue.location.id,
        time: expect.stringMatching(new RegExp(`^${day}T18:00:00-0[78]:00$`)),
      })),
      subtotal_cents: 9300,
      discount_cents: 0,
      pre_tax_cents: 9300,
      sales_tax_cents: 825, // 825.375
      total_cents: 10125,
      booking_fees_threshold: 4,
      credits_using: 0,
      credits_value_cents: 0,
      // The club's 20% on 9000 plus the 300 of fees it would waive.
      credits_program_saves: 2100,
      currency: 'USD',
      cancellation_policy:
        'Free cancellation until 24 hours before your session. Later cancellations and no-shows are not refunded.',
    });
  });

  it('waives fees when the checkout reaches 30 × threshold minutes', async () => {
    const user = await createUser(t);
    const body = (await quote(user, { reservations: items([0, 1, 2, 3], '19:00') })).json();
    expect(
      body.line_items.map(
        (l: { calendar_booking_fee_cents: number }) => l.calendar_booking_fee_cents,
      ),
    ).toEqual([0, 0, 0, 0]);
    expect(body.subtotal_cents).toBe(18000);
    expect(body.sales_tax_cents).toBe(1598); // 1597.5 rounds up
  });

  it('applies a voucher up to its balance, any case', async () => {
    const user = await createUser(t);
    const partial = await voucher(1000);
    const a = (
      await quote(user, { reservations: items([0], '18:30'), voucher: partial.toLowerCase() })
    ).json();
    expect(a).toMatchObject({
      subtotal_cents: 4650,
      discount_cents: 1000,
      pre_tax_cents: 3650,
      sales_tax_cents: 324,
      total_cents: 3974,
    });
    const big = await voucher(50_000);
    const b = (await quote(user, { reservations: items([0], '18:30'), voucher: big })).json();
    expect(b).toMatchObject({
      discount_cents: 4650,
      pre_tax_cents: 0,
      sales_tax_cents: 0,
      total_cents: 0,
    });
  });

  it('rejects an unknown voucher with the spec’s message', async () => {
    const user = await createUser(t);
    const res = await quote(user, { reservations: items([0], '18:30'), voucher: 'NOPE2345NOPE' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ voucher: [VOUCHER_REJECTED_MESSAGE] });
  });

  it('names every bad field', async () => {
    const user = await createUser(t);
    const seat = venue.seats[0].id;
    const cases: [unknown, string][] = [
      [{}, 'reservations'],
      [{ reservations: [] }, 'reservations'],
      [{ reservations: 'all' }, 'reservations'],
      [{ reservations: [{ calendar: seat }] }, 'reservations.0.slot'],
      [{ reservations: [{ slot: at('10:00') }] }, 'reservations.0.calendar'],
      [{ reservations: [{ calendar: seat, slot: at('10:15') }] }, 'reservations.0.slot'],
      [{ reservations: [{ calendar: 999999, slot: at('10:00') }] }, 'reservations.0.calendar'],
      [{ reservations: [{ calendar: seat, slot: '2020-01-01T10:00' }] }, 'reservations.0.slot'],
      [{ reservations: [{ calendar: seat, slot: at('10:00'), extra: 1 }] }, 'reservations.0.extra'],
      [
        {
          reservations: [
            { calendar: seat, slot: at('10:00') },
            { calendar: seat, slot: at('10:00') },
          ],
        },
        'reservations.1.slot',
      ],
      [
        {
          reservations: [
            { calendar: seat, slot: at('10:00') },
            { calendar: other.seats[0].id, slot: at('10:00') },
          ],
        },
        'reservations',
      ],
      [{ reservations: [{ calendar: seat, slot: at('10:00') }], voucher: 5 }, 'voucher'],
      [{ reservations: [{ calendar: seat, slot: at('10:00') }], coupon: 'X' }, 'coupon'],
    ];
    for (const [payload, field] of cases) {
      const res = await quote(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json()), JSON.stringify(payload)).toContain(field);
    }
    expect((await quote(undefined, { reservations: items([0], '10:00') })).statusCode).toBe(401);
  });

  it('holds nothing: the seat stays free for anyone', async () => {
    const user = await createUser(t);
    const rival = await createUser(t);
    expect((await quote(user, { reservations: items([3], '08:00') })).statusCode).toBe(200);
    const booked = await post('/api/reservations', rival, {
      calendar: venue.seats[3].id,
      slot: at('08:00'),
    });
    expect(booked.statusCode).toBe(201);
    const again = await quote(user, { reservations: items([3], '08:00') });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
  });
});

describe('POST /reservations/checkouts/{id}/process', () => {
  it('books, charges once, confirms by e-mail with an .ics, and replays on a second call', async () => {
    const user = await createUser(t, { email: `racer-${Date.now()}@example.com` });
    await saveTestCard(t, user);
    const q = (await quote(user, { reservations: items([0, 1], '20:00') })).json();
    const res = await processIt(user, q.checkout_id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      checkout_id: q.checkout_id,
      status: 'paid',
      total_cents: 10125,
      post_booking_url: 'https://example.com/thanks',
    });
    expect(body.reservations).toHaveLength(2);
    expect(
      body.reservations.every(
        (r: { paid: boolean; checkout: number; user: number }) =>
          r.paid && r.checkout === q.checkout_id && r.user === user.id,
      ),
    ).toBe(true);
    expect(
      body.reservations
        .map((r: { amount_cents: number }) => r.amount_cents)
        .reduce((a: number, b: number) => a + b),
    ).toBe(10125);

    const again = await processIt(user, q.checkout_id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    expect(await chargesFor(q.checkout_id)).toHaveLength(1);
    expect((await chargesFor(q.checkout_id))[0]).toMatchObject({ amountCents: 10125, errors: '' });

    await receiptsSent(t);
    const [mail] = await t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.to, user.email));
    expect(mail.subject).toBe('Your booking at Downtown is confirmed');
    expect(mail.text).toContain('Sim 1');
    expect(mail.text).toContain('8:00 PM');
    const dir = path.join(t.deps.config.dataDir, 'outbox');
    const eml = await fs.readFile(
      path.join(
        dir,
        (await fs.readdir(dir)).find((f) => f.endsWith(`-${mail.id}.eml`))!,
      ),
      'utf8',
    );
    const ics = Buffer.from(
      eml.split('filename=booking.ics')[1].split('\n\n')[1].split('\n--')[0].replace(/\s/g, ''),
      'base64',
    ).toString('utf8');
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('BEGIN:VTIMEZONE');
    // Two seats side by side: one visit (decision 0098).
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toContain('SUMMARY:Sim 1 and Sim 2 at Downtown');
    expect(ics).toContain(`DTSTART;TZID=America/Los_Angeles:${day.replaceAll('-', '')}T200000`);
    expect(ics).toContain(`DTEND;TZID=America/Los_Angeles:${day.replaceAll('-', '')}T203000`);
  });

  it('charges once however many times a double click fires at once', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const q = (await quote(user, { reservations: items([2], '20:30') })).json();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => processIt(user, q.checkout_id)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    const recorded = await chargesFor(q.checkout_id);
    expect(recorded).toHaveLength(1);
    const atProvider = await t.db
      .select()
      .from(localCharges)
      .where(like(localCharges.idempotencyKey, `%checkout-${q.checkout_id}`));
    expect(atProvider).toHaveLength(1);
  });

  it('is the owner’s alone', async () => {
    const user = await createUser(t);
    const intruder = await createUser(t);
    const q = (await quote(user, { reservations: items([3], '21:00') })).json();
    expect((await processIt(intruder, q.checkout_id)).statusCode).toBe(404);
    expect((await processIt(staff, q.checkout_id)).statusCode).toBe(404);
    expect((await processIt(user, 999999)).statusCode).toBe(404);
    expect((await post('/api/reservations/checkouts/abc/process', user)).statusCode).toBe(400);
  });

  it('creates nothing and charges nothing when a seat went in the meantime', async () => {
    const user = await createUser(t);
    const rival = await createUser(t);
    await saveTestCard(t, user);
    const q = (
      await quote(user, { reservations: [...items([0], '21:30'), ...items([1], '21:30')] })
    ).json();
    await post('/api/reservations', rival, { calendar: venue.seats[1].id, slot: at('21:30') });
    const res = await processIt(user, q.checkout_id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });
    expect(await chargesFor(q.checkout_id)).toHaveLength(0);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/reservations',
      headers: bearer(user.token),
    });
    expect(mine.json().count).toBe(0);
  });

  it('leaves a declined booking unpaid and outstanding until a good card pays it', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const q = (await quote(user, { reservations: items([0], '22:00') })).json();
    const res = await processIt(user, q.checkout_id);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ detail: 'Your card was declined.', code: 'payment_failed' });
    const again = await processIt(user, q.checkout_id);
    expect(again.statusCode).toBe(402);
    expect(again.json()).toEqual(res.json());
    expect(await chargesFor(q.checkout_id)).toHaveLength(1);

    expect(await balanceOf(user)).toEqual({
      amount_cents: 5063,
      currency: 'USD',
      detail: [
        {
          description: expect.stringMatching(/^Sim 1, .*10:00 PM$/),
          amount_cents: 5063,
          currency: 'USD',
        },
      ],
    });
    // The seat is still the customer's (unpaid), so nobody else can take it.
    const rival = await createUser(t);
    const taken = await post('/api/reservations', rival, {
      calendar: venue.seats[0].id,
      slot: at('22:00'),
    });
    expect(taken.json()).toEqual({ non_field_errors: [SLOT_TAKEN_MESSAGE] });

    // Capturing with the same declining card fails with the provider's message.
    const capture = await post('/api/users/me/charges/capture_outstanding', user);
    expect(capture.statusCode).toBe(402);
    expect(capture.json().detail).toBe('Your card was declined.');

    // Saving a good card charges nothing by itself (decision 0096): the balance stays owed...
    await saveTestCard(t, user);
    expect((await balanceOf(user)).amount_cents).toBe(5063);
    expect(await chargesFor(q.checkout_id)).toHaveLength(1);
    // ...until the customer answers "Pay the outstanding $50.63 now?".
    const paid = await post('/api/users/me/charges/capture_outstanding', user);
    expect(paid.json()).toEqual({
      detail: 'The outstanding balance has been paid.',
      amount_cents: 5063,
    });
    expect(await balanceOf(user)).toEqual({ amount_cents: 0, currency: 'USD', detail: [] });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/reservations',
      headers: bearer(user.token),
    });
    expect(list.json().results[0].paid).toBe(true);
    const paidCharges = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    expect(paidCharges.filter((c) => c.errors === '').map((c) => c.amountCents)).toEqual([5063]);
    // The capture mails a receipt naming the booking's venue and time zone (docs/decisions/0039).
    const receipt = await sentMail(
      t,
      user.email,
      /^Receipt: outstanding balance of \$50\.63 paid$/,
    );
    for (const part of [receipt.text, receipt.html]) {
      expect(part).toContain('$50.63');
      expect(part).toContain('Downtown (America/Los_Angeles)');
    }
  });

  it('books without a card when a voucher covers everything, and spends the voucher', async () => {
    const user = await createUser(t);
    const code = await voucher(6000);
    const q = (await quote(user, { reservations: items([1], '22:30'), voucher: code })).json();
    expect(q.total_cents).toBe(0);
    const res = await processIt(user, q.checkout_id);
    expect(res.statusCode).toBe(200);
    expect(res.json().reservations[0].paid).toBe(true);
    expect(await chargesFor(q.checkout_id)).toHaveLength(0);
    const balance = await t.app.inject({ method: 'GET', url: `/api/vouchers/${code}/balance` });
    expect(balance.json()).toEqual({
      balance_cents: 6000 - 4650,
      currency: 'USD',
      status: 'active',
      expires_on: null,
    });
  });

  it('charges the rest after a partial voucher', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const code = await voucher(1000);
    const q = (await quote(user, { reservations: items([2], '22:30'), voucher: code })).json();
    expect((await processIt(user, q.checkout_id)).statusCode).toBe(200);
    expect((await chargesFor(q.checkout_id))[0].amountCents).toBe(3974);
    const balance = await t.app.inject({ method: 'GET', url: `/api/vouchers/${code}/balance` });
    expect(balance.json()).toEqual({
      balance_cents: 0,
      currency: 'USD',
      status: 'used',
      expires_on: null,
    });
  });

  it('refuses a voucher spent between quote and process, booking nothing', async () => {
    const first = await createUser(t);
    const second = await createUser(t);
    const code = await voucher(6000);
    const a = (await quote(first, { reservations: items([3], '23:00'), voucher: code })).json();
    const b = (await quote(second, { reservations: items([3], '23:30'), voucher: code })).json();
    expect((await processIt(first, a.checkout_id)).statusCode).toBe(200);
    const res = await processIt(second, b.checkout_id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ voucher: [VOUCHER_REJECTED_MESSAGE] });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/reservations',
      headers: bearer(second.token),
    });
    expect(mine.json().count).toBe(0);
  });

  it('keeps the booking as outstanding when there is no card', async () => {
    const user = await createUser(t);
    const q = (await quote(user, { reservations: items([0], '23:30') })).json();
    const res = await processIt(user, q.checkout_id);
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toBe('No payment method on file.');
    expect((await balanceOf(user)).amount_cents).toBe(5063);
  });
});
