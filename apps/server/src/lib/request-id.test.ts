import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser, type CreatedUser } from '../test/factories';

let t: TestApp;
let staff: CreatedUser;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    { logStream: { write: (line) => void lines.push(JSON.parse(line)) } },
  );
  staff = await createUser(t, { isStaff: true, permissions: ['vouchers.view_voucher'] });
});
afterAll(() => t.close());

it('answers each request with its id, and takes a plain id a proxy sent', async () => {
  const a = await t.app.inject({ method: 'GET', url: '/api/locations' });
  const b = await t.app.inject({ method: 'GET', url: '/api/locations' });
  expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  const forwarded = await t.app.inject({
    method: 'GET',
    url: '/api/locations',
    headers: { 'x-request-id': 'lb-7f3a.42' },
  });
  expect(forwarded.headers['x-request-id']).toBe('lb-7f3a.42');
  const odd = await t.app.inject({
    method: 'GET',
    url: '/api/locations',
    headers: { 'x-request-id': 'has spaces\nand a newline' },
  });
  expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
});

it('says which request and which user met a server error', async () => {
  // A real fault: the table the route reads is gone.
  await t.db.execute('alter table vouchers rename to vouchers_gone');
  try {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/vouchers',
      headers: bearer(staff.token),
    });
    expect(res.statusCode).toBe(500);
    const id = res.headers['x-request-id'];
    const errorLine = lines.find((l) => l.level === 50 && l.reqId === id);
    expect(errorLine).toMatchObject({ reqId: id, userId: staff.id });
  } finally {
    await t.db.execute('alter table vouchers_gone rename to vouchers');
  }
});
