import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOUCHER_ALPHABET } from '@paddock/contract/vouchers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import {
  findUsableVoucher,
  generateVoucherCode,
  normalizeVoucherCode,
  redeemVoucher,
} from './vouchers.service';

let t: TestApp;
let staff: CreatedUser;
let customer: CreatedUser;
beforeAll(async () => {
  t = await createTestApp();
  staff = await createUser(t, { isStaff: true, permissions: ['vouchers.add_voucher'] });
  customer = await createUser(t);
});
afterAll(() => t.close());

const create = (user: CreatedUser | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/vouchers',
    headers: user ? bearer(user.token) : {},
    payload: payload as object,
  });

describe('voucher codes', () => {
  it('are 12 characters without 0, O, 1 or I', () => {
    expect(VOUCHER_ALPHABET).not.toMatch(/[0O1I]/);
    const codes = new Set(Array.from({ length: 500 }, generateVoucherCode));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
  });

  it('are read in any case, with spaces and dashes ignored', () => {
    expect(normalizeVoucherCode(' abcd-efgh-jkmn ')).toBe('ABCDEFGHJKMN');
  });
});

describe('POST /vouchers and GET /vouchers/{code}/balance', () => {
  it('lets staff issue a voucher whose balance anyone can check', async () => {
    const res = await create(staff, { amount_cents: 2500 });
    expect(res.statusCode).toBe(201);
    const { code, amount_cents } = res.json();
    expect(amount_cents).toBe(2500);
    const balance = await t.app.inject({
      method: 'GET',
      url: `/api/vouchers/${code.toLowerCase()}/balance`,
    });
    expect(balance.statusCode).toBe(200);
    expect(balance.json()).toEqual({
      balance_cents: 2500,
      currency: 'USD',
      status: 'active',
      expires_on: null,
    });
  });

  it('answers 404 for an unknown code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/vouchers/NOPE2345NOPE/balance' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('is for staff only and names bad amounts', async () => {
    expect((await create(undefined, { amount_cents: 100 })).statusCode).toBe(401);
    expect((await create(customer, { amount_cents: 100 })).statusCode).toBe(403);
    for (const payload of [
      {},
      { amount_cents: 0 },
      { amount_cents: 10.5 },
      { amount_cents: '5' },
    ]) {
      const res = await create(staff, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toHaveProperty('amount_cents');
    }
  });

  it('redeems only what is left', async () => {
    const { code } = (await create(staff, { amount_cents: 1000 })).json();
    const v = (await findUsableVoucher(t.db, code))!;
    expect(await redeemVoucher(t.db, { voucherId: v.id, amountCents: 600, checkoutId: null })).toBe(
      true,
    );
    expect(await redeemVoucher(t.db, { voucherId: v.id, amountCents: 600, checkoutId: null })).toBe(
      false,
    );
    expect(await redeemVoucher(t.db, { voucherId: v.id, amountCents: 400, checkoutId: null })).toBe(
      true,
    );
    expect(await findUsableVoucher(t.db, code)).toBeNull();
    const balance = await t.app.inject({ method: 'GET', url: `/api/vouchers/${code}/balance` });
    expect(balance.json()).toEqual({
      balance_cents: 0,
      currency: 'USD',
      status: 'used',
      expires_on: null,
    });
  });
});
