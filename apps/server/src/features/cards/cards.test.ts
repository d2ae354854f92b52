import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { FUTURE_YEAR, saveTestCard, tokenizeCard } from '../../test/cards';
import { cards, localPaymentMethods } from '../../db/schema/payments';
import { cardHooks } from '../../plugins/payments/card-hooks';

let t: TestApp;
const saved: number[] = [];
beforeAll(async () => {
  t = await createTestApp();
  cardHooks(t.deps).onCardSaved(async (userId) => {
    saved.push(userId);
  });
});
afterAll(() => t.close());

const card = (user: CreatedUser, method: 'GET' | 'POST' | 'DELETE', id = 'me', payload?: object) =>
  t.app.inject({ method, url: `/api/users/${id}/card`, headers: bearer(user.token), payload });

describe('/api/users/{id}/card', () => {
  it('answers {} without a card, then the saved card, then {} after DELETE', async () => {
    const user = await createUser(t);
    expect((await card(user, 'GET')).json()).toEqual({});

    const token = await tokenizeCard(t);
    const res = await card(user, 'POST', 'me', { token });
    expect(res.statusCode).toBe(200);
    const expected = {
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: FUTURE_YEAR,
      postal_code: '94107',
    };
    expect(res.json()).toEqual(expected);
    expect(saved).toContain(user.id);
    expect((await card(user, 'GET')).json()).toEqual(expected);
    expect((await card(user, 'GET', String(user.id))).json()).toEqual(expected);

    const [row] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
    const deleted = await card(user, 'DELETE');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({});
    expect((await card(user, 'GET')).json()).toEqual({});
    const [method] = await t.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, row.paymentMethodRef));
    expect(method.customerId).toBeNull();
    expect((await card(user, 'DELETE')).statusCode).toBe(200);
  });

  it('replaces the saved card, detaching the old one and keeping the customer', async () => {
    const user = await createUser(t);
    await saveTestCard(t, user);
    const [first] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
    const second = await saveTestCard(t, user, '378282246310005');
    expect(second).toMatchObject({ brand: 'American Express', last4: '0005' });
    const [row] = await t.db.select().from(cards).where(eq(cards.userId, user.id));
    expect(row.customerRef).toBe(first.customerRef);
    expect(row.paymentMethodRef).not.toBe(first.paymentMethodRef);
    const [old] = await t.db
      .select()
      .from(localPaymentMethods)
      .where(eq(localPaymentMethods.id, first.paymentMethodRef));
    expect(old.customerId).toBeNull();
  });

  it('answers 400 with the provider message for 4000 0000 0000 0002 and keeps the old card', async () => {
    const user = await createUser(t);
    const kept = await saveTestCard(t, user);
    const before = saved.length;
    const token = await tokenizeCard(t, '4000000000000002');
    const res = await card(user, 'POST', 'me', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Your card was declined.'] });
    expect((await card(user, 'GET')).json()).toEqual(kept);
    expect(saved.length).toBe(before);
  });

  it('refuses a used or unknown token with the provider message', async () => {
    const user = await createUser(t);
    const token = await tokenizeCard(t);
    expect((await card(user, 'POST', 'me', { token })).statusCode).toBe(200);
    const reused = await card(user, 'POST', 'me', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().non_field_errors[0]).toMatch(/already used/);
    const unknown = await card(user, 'POST', 'me', { token: 'tok_unknown' });
    expect(unknown.json()).toEqual({ non_field_errors: ["No such token: 'tok_unknown'"] });
  });

  it("keeps customers out of other users' cards", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    await saveTestCard(t, owner);
    const plainStaff = await createUser(t, { isStaff: true });
    for (const caller of [other, plainStaff]) {
      expect((await card(caller, 'GET', String(owner.id))).statusCode).toBe(404);
      const token = await tokenizeCard(t);
      expect((await card(caller, 'POST', String(owner.id), { token })).statusCode).toBe(404);
      expect((await card(caller, 'DELETE', String(owner.id))).statusCode).toBe(404);
    }
    expect((await card(owner, 'GET')).json()).toMatchObject({ last4: '4242' });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/users/${owner.id}/card` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lets staff with user.change_user read, set and remove any card', async () => {
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const customer = await createUser(t);
    const token = await tokenizeCard(t, '6011111111111117');
    const res = await card(staff, 'POST', String(customer.id), { token });
    expect(res.statusCode).toBe(200);
    expect((await card(customer, 'GET')).json()).toMatchObject({ brand: 'Discover' });
    expect((await card(staff, 'GET', String(customer.id))).json()).toMatchObject({
      last4: '1117',
    });
    expect((await card(staff, 'DELETE', String(customer.id))).statusCode).toBe(200);
    expect((await card(customer, 'GET')).json()).toEqual({});
    expect((await card(staff, 'GET', '999999')).statusCode).toBe(404);
  });

  it('answers 400 naming the field for bad input', async () => {
    const user = await createUser(t);
    const cases: [object | undefined, string][] = [
      [{}, 'token'],
      [{ token: '' }, 'token'],
      [{ token: 5 }, 'token'],
      [{ token: 'x'.repeat(300) }, 'token'],
      [{ token: 'tok_x', extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await card(user, 'POST', 'me', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json())).toContain(field);
    }
    for (const id of ['abc', '0', '-1', '1.5']) {
      const res = await card(user, 'GET', id);
      expect(res.statusCode, id).toBe(400);
      expect(Object.keys(res.json())).toEqual(['id']);
    }
  });
});
