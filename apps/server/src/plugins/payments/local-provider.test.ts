import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  CARD_CVC_INVALID,
  CARD_DECLINED,
  CARD_EXPIRY_INVALID,
  CARD_INSUFFICIENT_FUNDS,
  CARD_NUMBER_INVALID,
} from '@paddock/contract/cards';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createUser } from '../../test/factories';
import { FUTURE_YEAR, saveTestCard, tokenizeCard } from '../../test/cards';
import {
  cards,
  charges,
  localCharges,
  localPaymentMethods,
  localTokens,
} from '../../db/schema/payments';
import { chargeSavedCard } from './charge-card';
import { LocalPaymentProvider, REFUND_DECLINED } from './local-provider';
import { CardError } from './provider';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://paddock.example' });
});
afterAll(() => t.close());

const validCard = {
  number: '4242 4242 4242 4242',
  exp_month: 12,
  exp_year: FUTURE_YEAR,
  cvc: '123',
  postal_code: '94107',
};
const tokenize = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/payments/local/tokens', payload });
const local = () => t.deps.payments as LocalPaymentProvider;

describe('POST /api/payments/local/tokens', () => {
  it("answers a single-use token in Stripe's shape and keeps no card number", async () => {
    const res = await tokenize(validCard);
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    expect(id).toMatch(/^tok_[A-Za-z0-9]{24}$/);
    const [row] = await t.db.select().from(localTokens).where(eq(localTokens.id, id));
    expect(row).toMatchObject({ brand: 'Visa', last4: '4242', expMonth: 12, postalCode: '94107' });
    const dump = JSON.stringify(await t.db.execute(sql`select * from local_tokens`));
    expect(dump).not.toContain('4242424242424242');
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('names the brand from the number', async () => {
    const brands: [string, string][] = [
      ['5555555555554444', 'Mastercard'],
      ['2223003122003222', 'Mastercard'],
      ['378282246310005', 'American Express'],
      ['6011111111111117', 'Discover'],
      ['4000056655665556', 'Visa'],
    ];
    for (const [number, brand] of brands) {
      const id = await tokenizeCard(t, number);
      const [row] = await t.db.select().from(localTokens).where(eq(localTokens.id, id));
      expect(row.brand, number).toBe(brand);
    }
  });

  it.each([
    ['4242424242424241', 'Luhn check fails'],
    ['424242424242', 'too short'],
    ['42424242424242424242', 'too long'],
    ['4242-4242-abcd-4242', 'letters'],
    ['', 'empty'],
  ])('rejects number %s (%s) with Stripe’s message', async (number) => {
    const res = await tokenize({ ...validCard, number });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ number: [CARD_NUMBER_INVALID] });
  });

  it('rejects a month outside 1–12 on exp_month and a past or far date on exp_year', async () => {
    for (const exp_month of [0, 13, 'xx']) {
      const res = await tokenize({ ...validCard, exp_month });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ exp_month: [CARD_EXPIRY_INVALID] });
    }
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const past = [
      { exp_month: 12, exp_year: now.getUTCFullYear() - 1 },
      { exp_month: lastMonth.getUTCMonth() + 1, exp_year: lastMonth.getUTCFullYear() },
      { exp_month: 1, exp_year: now.getUTCFullYear() + 60 },
      { exp_month: 1, exp_year: 'soon' },
    ];
    for (const expiry of past) {
      const res = await tokenize({ ...validCard, ...expiry });
      expect(res.statusCode, JSON.stringify(expiry)).toBe(400);
      expect(res.json()).toEqual({ exp_year: [CARD_EXPIRY_INVALID] });
    }
  });

  it('accepts this month, and a two-digit year as 20xx', async () => {
    const now = new Date();
    const thisMonth = await tokenize({
      ...validCard,
      exp_month: now.getUTCMonth() + 1,
      exp_year: now.getUTCFullYear(),
    });
    expect(thisMonth.statusCode).toBe(200);
    const twoDigit = await tokenize({ ...validCard, exp_year: FUTURE_YEAR % 100 });
    expect(twoDigit.statusCode).toBe(200);
    const [row] = await t.db
      .select()
      .from(localTokens)
      .where(eq(localTokens.id, twoDigit.json().id));
    expect(row.expYear).toBe(FUTURE_YEAR);
  });

  it('rejects a security code that is not 3–4 digits', async () => {
    for (const cvc of ['12', '12345', 'abc', '']) {
      const res = await tokenize({ ...validCard, cvc });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ cvc: [CARD_CVC_INVALID] });
    }
    expect((await tokenize({ ...validCard, cvc: '1234' })).statusCode).toBe(200);
  });

  it('names every missing, mistyped or unknown field', async () => {
    const res = await tokenize({ number: 4242, pin: '0000' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['cvc', 'exp_month', 'exp_year', 'number', 'pin']);
    expect(body.cvc).toEqual(['This field is required.']);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/payments/local/tokens',
      headers: { 'content-type': 'application/json' },
      payload: '{"number":',
    });
    expect(notJson.statusCode).toBe(400);
  });
});

describe('LocalPaymentProvider', () => {
  const attach = (token: string) =>
    local().attachCard({ token, email: 'a@example.com', name: 'A', customerRef: null });

  it('attaches a token once; a used, unknown or expired token is a CardError', async () => {
    const token = await tokenizeCard(t);
    const card = await attach(token);
    expect(card).toMatchObject({ brand: 'Visa', last4: '4242', expYear: FUTURE_YEAR });
    expect(card.customerRef).toMatch(/^cus_/);
    expect(card.paymentMethodRef).toMatch(/^pm_/);
    await expect(attach(token)).rejects.toThrow(/already used/);
    await expect(attach('tok_nope')).rejects.toThrow("No such token: 'tok_nope'");
    const old = await tokenizeCard(t);
    await t.db
      .update(localTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(localTokens.id, old));
    await expect(attach(old)).rejects.toThrow(/expired/);
  });

  it('uses a token once even when two saves race', async () => {
    const token = await tokenizeCard(t);
    const results = await Promise.allSettled([attach(token), attach(token), attach(token)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('declines 4000 0000 0000 0002 when it is attached', async () => {
    const token = await tokenizeCard(t, '4000000000000002');
    const error = await attach(token).catch((e) => e);
    expect(error).toBeInstanceOf(CardError);
    expect(error.message).toBe(CARD_DECLINED);
  });

  it('never charges one idempotency key twice, sequentially or concurrently', async () => {
    const token = await tokenizeCard(t);
    const card = await attach(token);
    const input = {
      customerRef: card.customerRef,
      paymentMethodRef: card.paymentMethodRef,
      amountCents: 1250,
      currency: 'USD',
      description: 'Race',
      idempotencyKey: 'local-key-1',
    };
    const first = await local().charge(input);
    expect(first).toMatchObject({ ok: true, chargeRef: expect.stringMatching(/^ch_/) });
    const again = await local().charge({ ...input, amountCents: 9999 });
    expect(again).toEqual(first);
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => local().charge({ ...input, idempotencyKey: 'local-key-2' })),
    );
    expect(new Set(racing.map((r) => r.chargeRef)).size).toBe(1);
    const rows = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.customerId, card.customerRef));
    expect(rows).toHaveLength(2);
  });

  it('refuses amounts below $0.50 like Stripe, and a detached card', async () => {
    const card = await attach(await tokenizeCard(t));
    const base = { ...card, currency: 'USD', description: 'x', idempotencyKey: 'small-1' };
    const small = await local().charge({ ...base, amountCents: 49 });
    expect(small).toMatchObject({ ok: false, message: 'Amount must be at least $0.50 usd' });
    await local().detachCard(card);
    const [method] = await t.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, card.paymentMethodRef));
    expect(method.customerId).toBeNull();
    const gone = await local().charge({ ...base, amountCents: 500, idempotencyKey: 'gone-1' });
    expect(gone.ok).toBe(false);
  });
});

describe('LocalPaymentProvider refunds', () => {
  it('refunds once per key, never more than is left on the charge, racing or not', async () => {
    const card = await local().attachCard({
      token: await tokenizeCard(t),
      email: 'r@example.com',
      name: 'R',
      customerRef: null,
    });
    const charged = await local().charge({
      ...card,
      amountCents: 1000,
      currency: 'USD',
      description: 'x',
      idempotencyKey: 'refund-base-1',
    });
    const ref = charged.chargeRef!;
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => local().refund(ref, 600, 'refund-a')),
    );
    expect(new Set(racing.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(racing[0]).toMatchObject({ ok: true, refundRef: expect.stringMatching(/^re_/) });
    const over = await local().refund(ref, 401, 'refund-b');
    expect(over).toMatchObject({
      ok: false,
      message: 'Refund amount ($4.01) is greater than unrefunded amount on charge ($4.00)',
    });
    expect(await local().refund(ref, 400, 'refund-c')).toMatchObject({ ok: true });
    expect(await local().refund('ch_nope', 100, 'refund-d')).toMatchObject({ ok: false });
  });

  it('declines refunds to 4000 0000 0000 5126, whose charges go through', async () => {
    const card = await local().attachCard({
      token: await tokenizeCard(t, '4000000000005126'),
      email: 'r@example.com',
      name: 'R',
      customerRef: null,
    });
    const charged = await local().charge({
      ...card,
      amountCents: 900,
      currency: 'USD',
      description: 'x',
      idempotencyKey: 'refund-base-2',
    });
    expect(charged.ok).toBe(true);
    expect(await local().refund(charged.chargeRef!, 900, 'refund-e')).toMatchObject({
      ok: false,
      message: REFUND_DECLINED,
    });
  });
});

describe('chargeSavedCard', () => {
  it('records a successful charge with its receipt, once per key even when racing', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const input = {
      userId: user.id,
      amountCents: 1250,
      currency: 'USD',
      notes: 'Reservation: Rig 1',
      idempotencyKey: `checkout:${user.id}`,
      kind: 'booking' as const,
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => chargeSavedCard(t.db, t.deps.payments, input)),
    );
    for (const r of results) expect(r.ok).toBe(true);
    expect(new Set(results.map((r) => r.charge.id)).size).toBe(1);
    const charge = results[0].charge;
    expect(charge).toMatchObject({
      userId: user.id,
      amountCents: 1250,
      currency: 'USD',
      errors: '',
      kind: 'booking',
      chargeRef: expect.stringMatching(/^ch_/),
    });
    expect(charge.receiptUrl).toBe(
      `https://paddock.example/api/payments/local/receipts/${charge.chargeRef}`,
    );
    const again = await chargeSavedCard(t.db, t.deps.payments, input);
    expect(again.charge).toEqual(charge);
    const rows = await t.db.select().from(charges).where(eq(charges.userId, user.id));
    expect(rows).toHaveLength(1);
    const provider = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.id, charge.chargeRef!));
    expect(provider).toHaveLength(1);
    const all = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.idempotencyKey, `${provider[0].customerId}:checkout:${user.id}`));
    expect(all).toHaveLength(1);
  });

  it('records the decline of 4000 0000 0000 0341 and the insufficient funds of …9995', async () => {
    for (const [number, message] of [
      ['4000000000000341', CARD_DECLINED],
      ['4000000000009995', CARD_INSUFFICIENT_FUNDS],
    ]) {
      const user = await createUser(t);
      const saved = await saveTestCard(t, user, number);
      expect(saved.last4).toBe(number.slice(-4));
      const result = await chargeSavedCard(t.db, t.deps.payments, {
        userId: user.id,
        amountCents: 3000,
        currency: 'USD',
        notes: 'Club renewal',
        idempotencyKey: `club:${user.id}`,
        kind: 'club',
      });
      expect(result).toMatchObject({ ok: false, message });
      expect(result.charge).toMatchObject({ errors: message, receiptUrl: null });
      expect(result.charge.chargeRef).toMatch(/^ch_/);
    }
  });

  it('records "No payment method on file." when there is no card, without the provider', async () => {
    const user = await createUser(t);
    const result = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: 500,
      currency: 'USD',
      notes: 'Voucher',
      idempotencyKey: `voucher:${user.id}`,
      kind: 'voucher',
    });
    expect(result).toMatchObject({ ok: false, message: 'No payment method on file.' });
    expect(result.charge).toMatchObject({ chargeRef: null, errors: 'No payment method on file.' });
  });

  it('works inside a transaction: the record rolls back, a retry does not charge again', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const input = {
      userId: user.id,
      amountCents: 800,
      currency: 'USD',
      notes: 'Booking',
      idempotencyKey: `tx:${user.id}`,
      kind: 'booking' as const,
    };
    await expect(
      t.db.transaction(async (tx) => {
        const r = await chargeSavedCard(tx, t.deps.payments, input);
        expect(r.ok).toBe(true);
        throw new Error('the booking failed after the charge');
      }),
    ).rejects.toThrow('the booking failed');
    expect(await t.db.select().from(charges).where(eq(charges.userId, user.id))).toHaveLength(0);
    const retry = await t.db.transaction((tx) => chargeSavedCard(tx, t.deps.payments, input));
    expect(retry.ok).toBe(true);
    const provider = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.id, retry.charge.chargeRef!));
    expect(provider).toHaveLength(1);
    const sameKey = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.customerId, provider[0].customerId));
    expect(sameKey).toHaveLength(1);
  });

  it('decides in its one statement as the provider does: too small, expired, no longer on file', async () => {
    const user = await createUser(t);
    const saved = await saveTestCard(t, user);
    const charge = (key: string, amountCents = 500) =>
      chargeSavedCard(t.db, t.deps.payments, {
        userId: user.id,
        amountCents,
        currency: 'USD',
        notes: 'Booking',
        idempotencyKey: `${key}:${user.id}`,
        kind: 'booking',
      });
    const small = await charge('small', 49);
    expect(small).toMatchObject({ ok: false, message: 'Amount must be at least $0.50 usd' });
    expect(small.charge.chargeRef).toMatch(/^ch_/);
    const [card] = await t.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.last4, saved.last4))
      .orderBy(sql`${localPaymentMethods.createdAt} desc`)
      .limit(1);
    const lastYear = new Date().getUTCFullYear() - 1;
    await t.db
      .update(localPaymentMethods)
      .set({ expYear: lastYear })
      .where(eq(localPaymentMethods.id, card.id));
    expect(await charge('expired')).toMatchObject({
      ok: false,
      message: 'Your card has expired.',
    });
    await t.db
      .update(localPaymentMethods)
      .set({ expYear: FUTURE_YEAR, customerId: null })
      .where(eq(localPaymentMethods.id, card.id));
    expect(await charge('gone')).toMatchObject({
      ok: false,
      message: 'This card is no longer on file. Please add your card again.',
    });
    const provider = await t.db
      .select()
      .from(localCharges)
      .where(eq(localCharges.paymentMethodId, card.id));
    expect(provider.map((c) => c.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('never charges under a key already recorded, even as a failure without the provider', async () => {
    const user = await createUser(t);
    const input = {
      userId: user.id,
      amountCents: 700,
      currency: 'USD',
      notes: 'Capture',
      idempotencyKey: `capture:${user.id}`,
      kind: 'capture' as const,
    };
    const first = await chargeSavedCard(t.db, t.deps.payments, input);
    expect(first).toMatchObject({ ok: false, message: 'No payment method on file.' });
    await saveTestCard(t, user);
    const again = await chargeSavedCard(t.db, t.deps.payments, input);
    expect(again.charge).toEqual(first.charge);
    // Asked directly (as a caller that knows no Charge row can exist yet would), it still
    // charges nothing: the recorded failure holds the key.
    const [card] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
    const direct = await local().chargeAndRecord(
      t.db,
      {
        customerRef: card.customerRef,
        paymentMethodRef: card.paymentMethodRef,
        amountCents: 700,
        currency: 'USD',
        description: 'Capture',
        idempotencyKey: `${card.customerRef}:capture:${user.id}`,
      },
      { userId: user.id, notes: 'Capture', kind: 'capture', idempotencyKey: input.idempotencyKey },
    );
    expect(direct).toBeNull();
    const provider = await t.db
      .select()
      .from(localCharges)
      .where(sql`${localCharges.idempotencyKey} like ${`%:capture:${user.id}`}`);
    expect(provider).toHaveLength(0);
  });

  it('refuses a non-positive or fractional amount as a programming error', async () => {
    const user = await createUser(t);
    for (const amountCents of [0, -5, 1.5]) {
      await expect(
        chargeSavedCard(t.db, t.deps.payments, {
          userId: user.id,
          amountCents,
          currency: 'USD',
          notes: '',
          idempotencyKey: `bad:${amountCents}`,
          kind: 'other',
        }),
      ).rejects.toThrow(RangeError);
    }
  });
});

describe('GET /api/payments/local/receipts/{id}', () => {
  it('serves a printable HTML receipt of a successful charge', async () => {
    await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: {
        authorization: `Bearer ${(await createUser(t, { isStaff: true, permissions: ['venue.change_settings'] })).token}`,
      },
      payload: { company_name: 'Apex <Sim> Racing' },
    });
    const user = await createUser(t);
    await saveTestCard(t, user, '5555555555554444');
    const { charge } = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: 123456,
      currency: 'USD',
      notes: 'Gift voucher',
      idempotencyKey: `receipt:${user.id}`,
      kind: 'voucher',
    });
    const url = new URL(charge.receiptUrl!);
    const res = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Apex &lt;Sim&gt; Racing');
    expect(res.body).toContain('$1,234.56');
    expect(res.body).toContain('Gift voucher');
    expect(res.body).toContain('Mastercard ending in 4444');
    expect(res.body).toMatch(/\d{4} at \d{1,2}:\d\d [AP]M/);
  });

  it('answers 404 for an unknown or failed charge', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/payments/local/receipts/ch_nope',
    });
    expect(missing.statusCode).toBe(404);
    const user = await createUser(t);
    await saveTestCard(t, user, '4000000000000341');
    const { charge } = await chargeSavedCard(t.db, t.deps.payments, {
      userId: user.id,
      amountCents: 1000,
      currency: 'USD',
      notes: '',
      idempotencyKey: `failed-receipt:${user.id}`,
      kind: 'booking',
    });
    const failed = await t.app.inject({
      method: 'GET',
      url: `/api/payments/local/receipts/${charge.chargeRef}`,
    });
    expect(failed.statusCode).toBe(404);
  });
});
