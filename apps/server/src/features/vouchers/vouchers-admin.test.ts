import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  VOUCHER_ALREADY_VOID_MESSAGE,
  VOUCHER_EXPIRY_PAST_MESSAGE,
  VOUCHER_VOIDED_MESSAGE,
  voucherExpiredMessage,
} from '@paddock/contract/vouchers';
import { auditEvents } from '../../db/schema/audit';
import { vouchers } from '../../db/schema/booking';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { createVenue, futureDate } from '../../test/booking-factories';
import { findUsableVoucher, redeemVoucher, venueToday } from './vouchers.service';

let t: TestApp;
let venue: Awaited<ReturnType<typeof createVenue>>;
let admin: CreatedUser;
let issuer: CreatedUser;
let viewer: CreatedUser;
let customer: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  venue = await createVenue(t, { seats: 1, costCents: 4000 });
  admin = await createUser(t, {
    isStaff: true,
    firstName: 'Vera',
    lastName: 'Voucher',
    permissions: ['vouchers.add_voucher', 'vouchers.view_voucher', 'vouchers.change_voucher'],
  });
  issuer = await createUser(t, { isStaff: true, permissions: ['vouchers.add_voucher'] });
  viewer = await createUser(t, { isStaff: true, permissions: ['vouchers.view_voucher'] });
  customer = await createUser(t, { firstName: 'Cara', lastName: 'Customer' });
});
afterAll(() => t.close());

type Json = Record<string, unknown>;
const call = (method: 'GET' | 'POST', url: string, user?: CreatedUser, payload?: Json) =>
  t.app.inject({
    method,
    url,
    headers: user ? bearer(user.token) : {},
    ...(payload === undefined ? {} : { payload }),
  });
const issue = async (payload: Json) => {
  const res = await call('POST', '/api/vouchers', admin, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; code: string } & Json;
};
const list = async (query: string) => {
  const res = await call('GET', `/api/vouchers?${query}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; results: { code: string; status: string }[] };
};
const voidIt = (id: number, payload: Json, user = admin) =>
  call('POST', `/api/vouchers/${id}/void`, user, payload);
const quote = (code: string) =>
  call('POST', '/api/reservations/checkouts/quote', customer, {
    reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(4)}T18:00` }],
    voucher: code,
  });

describe('issuing a voucher from the back office', () => {
  it('keeps the recipient, message and expiry, and says who issued it', async () => {
    const expires = futureDate(30);
    const v = await issue({
      amount_cents: 5000,
      recipient_email: 'gift@example.com',
      recipient_name: 'Gina Gift',
      message: 'Happy birthday!',
      expires_on: expires,
    });
    expect(v).toMatchObject({
      amount_cents: 5000,
      balance_cents: 5000,
      currency: 'USD',
      status: 'active',
      source: 'staff',
      created_by: { id: admin.id, email: admin.email, name: 'Vera Voucher' },
      recipient_email: 'gift@example.com',
      recipient_name: 'Gina Gift',
      message: 'Happy birthday!',
      expires_on: expires,
      voided_at: null,
      voided_by: null,
      void_reason: '',
      redemptions: [],
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'voucher.issue'), eq(auditEvents.targetId, v.id)));
    expect(audit.actorId).toBe(admin.id);
  });

  it.each([
    [{ amount_cents: 0 }, 'amount_cents'],
    [{ amount_cents: 500, recipient_email: 'not-an-address' }, 'recipient_email'],
    [{ amount_cents: 500, recipient_name: 'n'.repeat(101) }, 'recipient_name'],
    [{ amount_cents: 500, message: 'm'.repeat(201) }, 'message'],
    [{ amount_cents: 500, expires_on: '2027-02-30' }, 'expires_on'],
    [{ amount_cents: 500, expires_on: 'soon' }, 'expires_on'],
    [{ amount_cents: 500, currency: 'EUR' }, 'currency'],
  ])('answers %j with a 400 naming %s', async (payload, field) => {
    const res = await call('POST', '/api/vouchers', admin, payload);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual([field]);
  });

  it('refuses an expiry date in the past', async () => {
    const res = await call('POST', '/api/vouchers', admin, {
      amount_cents: 500,
      expires_on: '2020-01-01',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ expires_on: [VOUCHER_EXPIRY_PAST_MESSAGE] });
  });
});

describe('listing and searching vouchers', () => {
  it('finds a voucher by code, recipient, or purchaser, and filters by status', async () => {
    const a = await issue({ amount_cents: 1200, recipient_name: 'Zebedee Searchable' });
    const b = await issue({ amount_cents: 1300, recipient_email: 'quokka@example.org' });
    const byCode = await list(`search=${a.code.slice(0, 4).toLowerCase()}-${a.code.slice(4, 8)}`);
    expect(byCode.results.map((r) => r.code)).toContain(a.code);
    expect((await list('search=zebedee')).results.map((r) => r.code)).toEqual([a.code]);
    expect((await list('search=QUOKKA@example')).results.map((r) => r.code)).toEqual([b.code]);
    // The purchaser (here the issuing staff member) by e-mail and by name.
    expect((await list(`search=${admin.email}`)).count).toBeGreaterThanOrEqual(2);
    expect((await list('search=vera%20voucher')).count).toBeGreaterThanOrEqual(2);
    expect((await list('search=nobody-matches-this')).count).toBe(0);

    const spent = await issue({ amount_cents: 700, recipient_name: 'Spent Filter' });
    const usable = (await findUsableVoucher(t.db, spent.code))!;
    await redeemVoucher(t.db, { voucherId: usable.id, amountCents: 700, checkoutId: null });
    const used = await list('status=used&search=spent%20filter');
    expect(used.results).toEqual([expect.objectContaining({ code: spent.code, status: 'used' })]);
    expect((await list('status=active&search=spent%20filter')).count).toBe(0);
  });

  it('pages newest first', async () => {
    const first = await list('page_size=1');
    expect(first.results).toHaveLength(1);
    expect(first.count).toBeGreaterThan(1);
    const newest = await issue({ amount_cents: 100 });
    expect((await list('page_size=1')).results[0].code).toBe(newest.code);
  });

  it.each([
    ['status=lost', 'status'],
    ['page_size=1000', 'page_size'],
    ['page=0', 'page'],
    [`search=${'s'.repeat(101)}`, 'search'],
  ])('answers the query %s with a 400 naming %s', async (query, field) => {
    const res = await call('GET', `/api/vouchers?${query}`, admin);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual([field]);
  });
});

describe('voiding a voucher', () => {
  it('needs a reason, keeps it, and then checkout and the balance check refuse the voucher', async () => {
    const v = await issue({ amount_cents: 2500 });
    expect((await quote(v.code)).statusCode).toBe(200);

    for (const payload of [{}, { reason: '   ' }, { reason: 'r'.repeat(501) }]) {
      const res = await voidIt(v.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['reason']);
    }
    const res = await voidIt(v.id, { reason: ' Issued by mistake ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'voided',
      balance_cents: 2500,
      void_reason: 'Issued by mistake',
      voided_by: { id: admin.id },
      voided_at: expect.any(String),
    });
    const again = await voidIt(v.id, { reason: 'twice' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ non_field_errors: [VOUCHER_ALREADY_VOID_MESSAGE] });

    const refused = await quote(v.code.toLowerCase());
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ voucher: [VOUCHER_VOIDED_MESSAGE] });
    const balance = await call('GET', `/api/vouchers/${v.code}/balance`);
    expect(balance.json()).toEqual({
      balance_cents: 2500,
      currency: 'USD',
      status: 'voided',
      expires_on: null,
    });
    // Even a checkout priced before the void cannot spend it.
    expect(await redeemVoucher(t.db, { voucherId: v.id, amountCents: 100, checkoutId: null })).toBe(
      false,
    );
    expect((await list(`status=voided&search=${v.code}`)).count).toBe(1);

    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'voucher.void'), eq(auditEvents.targetId, v.id)));
    expect(audit.after).toEqual({ code: v.code, reason: 'Issued by mistake' });
  });

  it('answers 404 for an unknown voucher and 400 for a bad id', async () => {
    expect((await voidIt(999_999, { reason: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/api/vouchers/999999', admin)).statusCode).toBe(404);
    const bad = await call('GET', '/api/vouchers/abc', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('id');
  });
});

describe('expired vouchers', () => {
  it('show as expired and are refused at checkout', async () => {
    const v = await issue({ amount_cents: 900, recipient_name: 'Expiring Soon' });
    await t.db.update(vouchers).set({ expiresOn: '2020-06-30' }).where(eq(vouchers.id, v.id));
    const res = await quote(v.code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ voucher: [voucherExpiredMessage('2020-06-30')] });
    expect((await list('status=expired&search=expiring%20soon')).results).toEqual([
      expect.objectContaining({ code: v.code, status: 'expired' }),
    ]);
    expect((await list('status=active&search=expiring%20soon')).count).toBe(0);
    // The last day itself is still good.
    await t.db.update(vouchers).set({ expiresOn: venueToday() }).where(eq(vouchers.id, v.id));
    expect((await quote(v.code)).statusCode).toBe(200);
  });
});

describe('redemptions', () => {
  it('lists where a voucher was spent, with the customer', async () => {
    const v = await issue({ amount_cents: 100_000 });
    const priced = await quote(v.code);
    expect(priced.statusCode, priced.body).toBe(200);
    const done = await call(
      'POST',
      `/api/reservations/checkouts/${priced.json().checkout_id}/process`,
      customer,
    );
    expect(done.statusCode, done.body).toBe(200);
    const detail = (await call('GET', `/api/vouchers/${v.id}`, admin)).json();
    expect(detail.balance_cents).toBe(100_000 - priced.json().discount_cents);
    expect(detail.redemptions).toEqual([
      {
        id: expect.any(Number),
        amount_cents: priced.json().discount_cents,
        created_at: expect.any(String),
        checkout_id: priced.json().checkout_id,
        customer: { id: customer.id, email: customer.email, name: 'Cara Customer' },
      },
    ]);
  });
});

describe('who may do what', () => {
  it('gates listing, issuing and voiding by their own permissions', async () => {
    const v = await issue({ amount_cents: 300 });
    expect((await call('GET', '/api/vouchers')).statusCode).toBe(401);
    expect((await call('GET', '/api/vouchers', customer)).statusCode).toBe(403);
    expect((await call('GET', '/api/vouchers', issuer)).statusCode).toBe(403);
    expect((await call('GET', `/api/vouchers/${v.id}`, issuer)).statusCode).toBe(403);
    expect((await call('GET', `/api/vouchers/${v.id}`, viewer)).statusCode).toBe(200);
    expect((await call('POST', '/api/vouchers', viewer, { amount_cents: 100 })).statusCode).toBe(
      403,
    );
    expect((await voidIt(v.id, { reason: 'no' }, viewer)).statusCode).toBe(403);
    expect((await voidIt(v.id, { reason: 'no' }, issuer)).statusCode).toBe(403);
    expect((await call('POST', '/api/vouchers', issuer, { amount_cents: 100 })).statusCode).toBe(
      201,
    );
  });
});
