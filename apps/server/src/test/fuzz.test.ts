import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './test-app';
import { bearer, createUser, type CreatedUser } from './factories';
import { createVenue, futureDate } from './booking-factories';
import { users } from '../db/schema/accounts';

/**
 * Bad input never gives a 5xx, and a refused request changes nothing. Walks the OpenAPI
 * document: for every route, every path parameter, query parameter and top-level body field
 * gets each generated bad value in turn, sent as an anonymous visitor, a customer and a
 * superuser. After each route and role, when every answer was a refusal (4xx), the database
 * must be exactly as before.
 */
const BAD_VALUES: unknown[] = [
  2 ** 31,
  2 ** 63,
  -1,
  0,
  1.5,
  '0x10',
  '1e0',
  ' 1',
  '01',
  '',
  'x'.repeat(5000),
  'a\u0000b',
  '😀',
  '../../etc/passwd',
  "' or 1=1 --",
  true,
  null,
  [],
  {},
  { nested: { deep: [1, 2] } },
];
const WHOLE_BODIES: unknown[] = [{}, [], 'text', 42, null];

type Operation = {
  parameters?: { name: string; in: 'path' | 'query' }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};
type Request = { method: string; url: string; payload?: unknown };

let t: TestApp;
let customer: CreatedUser;
let superuser: CreatedUser;

beforeAll(async () => {
  t = await createTestApp();
  // Objects with id 1 everywhere, so the path of a fuzzed query or body names something real.
  customer = await createUser(t);
  superuser = await createUser(t, { isStaff: true, isSuperuser: true });
  const venue = await createVenue(t, { seats: 2 });
  await t.app.inject({
    method: 'POST',
    url: '/api/reservations',
    headers: bearer(customer.token),
    payload: { calendar: venue.seats[0].id, slot: `${futureDate(2)}T12:00` },
  });
  await t.app.inject({
    method: 'POST',
    url: '/api/pages',
    headers: bearer(superuser.token),
    payload: { name: 'Fuzz page', content: '<p>hi</p>' },
  });
});
afterAll(() => t.close());

/** Per table: live rows and the newest writing transaction; any insert, update or delete moves it. */
async function fingerprint(): Promise<string> {
  const tables = await t.db.execute<{ name: string }>(sql`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not in ('rate_limit_counters', '__drizzle_migrations')
    order by tablename`);
  const parts: string[] = [];
  for (const { name } of tables.rows) {
    const res = await t.db.execute<{ n: string; x: string }>(
      sql.raw(`select count(*) as n, coalesce(max(xmin::text::bigint), 0) as x from "${name}"`),
    );
    parts.push(`${name}:${res.rows[0].n}:${res.rows[0].x}`);
  }
  return parts.join('|');
}

const encode = (value: unknown) =>
  encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

/** Every bad request for one route. */
function requestsFor(path: string, method: string, op: Operation): Request[] {
  const template = path.replace(/\{(\w+)\}/g, ':$1');
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const bodyFields = Object.keys(
    op.requestBody?.content?.['application/json']?.schema?.properties ?? {},
  );
  const withPath = (overrides: Record<string, string> = {}) =>
    pathParams.reduce((url, name) => url.replace(`:${name}`, overrides[name] ?? '1'), template);
  const out: Request[] = [];
  for (const name of pathParams)
    for (const value of BAD_VALUES) out.push({ method, url: withPath({ [name]: encode(value) }) });
  for (const name of queryParams)
    for (const value of BAD_VALUES)
      out.push({ method, url: `${withPath()}?${name}=${encode(value)}` });
  if (op.requestBody) {
    for (const name of bodyFields)
      for (const value of BAD_VALUES)
        out.push({ method, url: withPath(), payload: { [name]: value } });
    for (const payload of WHOLE_BODIES) out.push({ method, url: withPath(), payload });
    out.push({ method, url: withPath(), payload: { unknown_field: 1 } });
  }
  return out;
}

/** Fresh tokens for the roles: a fuzzed call may have ended their sessions (logout_all). */
async function session(user: CreatedUser | null): Promise<Record<string, string>> {
  if (!user) return {};
  const [row] = await t.db
    .select({ version: users.sessionVersion })
    .from(users)
    .where(eq(users.id, user.id));
  return bearer(await t.deps.tokens.sign(user.id, row.version));
}

describe('fuzzing every route with bad input', () => {
  it('never answers 5xx, and a refused request changes no row', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const serverErrors: string[] = [];
    const changedByRefusal: string[] = [];
    let sent = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(operations)) {
        const method = verb.toUpperCase();
        const requests = requestsFor(path, method, op);
        for (const role of [null, customer, superuser]) {
          const before = await fingerprint();
          let allRefused = true;
          for (const request of requests) {
            const res = await t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: await session(role),
              ...(request.payload === undefined
                ? {}
                : { payload: JSON.stringify(request.payload) }),
              ...(request.payload === undefined
                ? {}
                : { headers: { ...(await session(role)), 'content-type': 'application/json' } }),
            });
            sent += 1;
            if (res.statusCode >= 500)
              serverErrors.push(
                `${res.statusCode} ${request.method} ${request.url.slice(0, 120)} ${JSON.stringify(request.payload)?.slice(0, 120) ?? ''} as ${role === null ? 'anonymous' : role === customer ? 'customer' : 'superuser'}`,
              );
            if (res.statusCode < 400) allRefused = false;
          }
          if (allRefused && (await fingerprint()) !== before)
            changedByRefusal.push(`${method} ${path} as ${role?.email ?? 'anonymous'}`);
        }
      }
    }
    console.log(`fuzz: ${sent} requests, ${serverErrors.length} answered 5xx`);
    expect(serverErrors).toEqual([]);
    expect(changedByRefusal).toEqual([]);
  }, 300_000);
});
