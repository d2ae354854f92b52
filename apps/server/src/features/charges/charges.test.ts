import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';
import { saveTestCard } from '../../test/cards';
import { chargeSavedCard } from '../../plugins/payments/charge-card';
import { charges } from '../../db/schema/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const list = (user: CreatedUser, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/users/me/charges${query}`,
    headers: bearer(user.token),
  });

describe('GET /api/users/me/charges', () => {
  it("lists one's own charges newest first, with errors of failed ones", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    await saveTestCard(t, user);
    const charge = (amountCents: number, key: string) =>
      chargeSavedCard(t.db, t.deps.payments, {
        userId: user.id,
        amountCents,
        currency: 'USD',
        notes: `Charge ${key}`,
        idempotencyKey: `${user.id}:${key}`,
        kind: 'booking',
      });
    const first = await charge(1250, 'a');
    await charge(800, 'b');
    // A $0 line (e.g. a booking paid in full with credits) recorded by another feature.
    await t.db.insert(charges).values({
      userId: user.id,
      amountCents: 0,
      currency: 'USD',
      notes: 'Paid with credits',
      idempotencyKey: `${user.id}:zero`,
      kind: 'booking',
    });
    await saveTestCard(t, user, '4000000000000341');
    await charge(300, 'c');
    await saveTestCard(t, other);

    const res = await list(user, '?amount_cents__gt=0');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 3, page_count: 1, page_size: 25 });
    expect(body.results.map((c: { notes: string }) => c.notes)).toEqual([
      'Charge c',
      'Charge b',
      'Charge a',
    ]);
    expect(body.results[0]).toMatchObject({
      amount: '3.00',
      amount_cents: 300,
      errors: 'Your card was declined.',
      receipt_url: null,
    });
    expect(body.results[2]).toEqual({
      id: first.charge.id,
      amount: '12.50',
      amount_cents: 1250,
      currency: 'USD',
      notes: 'Charge a',
      errors: '',
      receipt_url: first.charge.receiptUrl,
      created: first.charge.createdAt.toISOString(),
      charge_id: first.charge.chargeRef,
      method: 'card',
    });
    expect((await list(user)).json().count).toBe(4);
    expect((await list(other)).json().count).toBe(0);

    const paged = (await list(user, '?page=2&page_size=2')).json();
    expect(paged).toMatchObject({ count: 4, page_count: 2, page_size: 2 });
    expect(paged.results).toHaveLength(2);
    expect((await list(user, '?page=3&page_size=2')).statusCode).toBe(404);
  });

  it('lets staff with user.change_user see another user’s charges, nobody else', async () => {
    const customer = await createUser(t);
    await saveTestCard(t, customer);
    await chargeSavedCard(t.db, t.deps.payments, {
      userId: customer.id,
      amountCents: 500,
      currency: 'USD',
      notes: 'Voucher',
      idempotencyKey: `v:${customer.id}`,
      kind: 'voucher',
    });
    const staff = await createUser(t, { isStaff: true, permissions: ['user.change_user'] });
    const seen = await list(staff, `?user=${customer.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().count).toBe(1);
    const nosy = await createUser(t);
    expect((await list(nosy, `?user=${customer.id}`)).statusCode).toBe(403);
    expect((await list(nosy, `?user=${nosy.id}`)).statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/users/me/charges' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 400 naming the parameter for bad input', async () => {
    const user = await createUser(t);
    for (const [query, field] of [
      ['?amount_cents__gt=lots', 'amount_cents__gt'],
      ['?user=me', 'user'],
      ['?page=0', 'page'],
      ['?page_size=1000', 'page_size'],
    ]) {
      const res = await list(user, query);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json())).toEqual([field]);
    }
  });
});
