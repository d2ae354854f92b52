import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './test-app';
import { ApiContract } from './api-contract';
import { bearer, createUser, type CreatedUser } from './factories';
import { createVenue, futureDate } from './booking-factories';
import { FUTURE_YEAR } from './cards';
import { users } from '../db/schema/accounts';
import { VALUE_ERRORS } from '../plugins/errors';
import { decodeResultsFile } from '../features/laps/results-files';
import { IMPORT_LIMIT } from '../features/laps/laps.routes';
import { WEBHOOK_LIMIT } from '../features/stripe-webhook/stripe-webhook.routes';
import { ROUTE_ACCESS } from '../plugins/route-access';
import Stripe from 'stripe';
import { stripeEvents } from '../db/schema/payments';
import { StripeStandIn } from './stripe-stand-in';
import crypto from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Bad input never gives a 5xx, and a refused request changes nothing. Walks the OpenAPI
 * document: for every route, every path parameter, query parameter and body field (nested ones
 * too) gets each generated bad value in turn, sent as an anonymous visitor, a customer and a
 * superuser. A bad body field is sent inside an otherwise valid body generated from the route's
 * schema, so the request gets past "field required" and into the service and repository code.
 * Every write request (and every batch of reads) is bracketed by a fingerprint of the database:
 * a request answered with a 4xx must leave every row as it was.
 */
const BAD_VALUES: unknown[] = [
  2 ** 31,
  2 ** 31 - 1, // in range, but no such row
  2 ** 63,
  -1,
  -(2 ** 31) - 1,
  0,
  1.5,
  1e308,
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
  '9999-12-31',
  '0000-01-01T00:00',
  '2030-02-30T10:00',
  true,
  null,
  [],
  {},
  { nested: { deep: [1, 2] } },
];
/** Inside a results file only the JSON types matter: no id syntax, dates or injections. */
const FILE_BAD_VALUES: unknown[] = [
  2 ** 31,
  2 ** 63,
  -(2 ** 31) - 1,
  -1,
  0,
  1.5,
  1e308,
  '',
  'x'.repeat(5000),
  'a\u0000b',
  true,
  null,
  [],
  { nested: { deep: [1, 2] } },
];
const WHOLE_BODIES: unknown[] = [{}, [], 'text', 42, null];

/**
 * Where the schema alone cannot say what a request that gets through looks like: the values that
 * make the generated base body succeed, so each bad field is tried on a request that would.
 */
let partyStarts = 0;
const BASE_OVERRIDES: Record<string, () => Record<string, unknown>> = {
  'POST /api/reservations': () => ({ slot: `${futureDate(3)}T14:00` }),
  'POST /api/payments/local/tokens': () => ({
    number: '4242424242424242',
    exp_month: 12,
    exp_year: FUTURE_YEAR,
  }),
  'POST /api/users/{id}/charges/credits_enroll': () => ({ credits_amount: 250 }),
  'POST /api/boards': () => ({ track: 1 }),
  // A fresh address each time, so the base walk-in is created rather than refused as taken.
  'POST /api/users/desk': () => ({
    first_name: 'Walk',
    email: `walk-in-${crypto.randomUUID()}@example.com`,
    contact_phone: '',
  }),
  'POST /api/auth/token': () => ({ username: customer.email, password: customer.password }),
  // User 1 is the customer: their own changes carry the current password (decision 0113), and
  // the base "changes" it to the same one, so later bases still know it.
  'POST /api/users/{id}/update_password': () => ({
    new_password: customer.password,
    current_password: customer.password,
  }),
  // Never the right password: a base that went through would delete the fuzz's customer (0124).
  'POST /api/users/{id}/delete_account': () => ({ current_password: 'not-the-password' }),
  'PATCH /api/users/{id}': () => ({ current_password: customer.password }),
  'PUT /api/users/{id}': () => ({ current_password: customer.password }),
  // Seat 1 out of service for an hour of a later day: the base goes through (and again, with
  // nothing left to move), so each bad field is tried on a request that would.
  'POST /api/planner/out_of_service': () => ({
    calendar: 1,
    from: `${futureDate(3)}T14:00`,
    to: `${futureDate(3)}T15:00`,
  }),
  // A party set up for later (decision 0101): each base a slot after the last, so it is made
  // rather than refused as overlapping the one before.
  'POST /api/races/parties/host': () => ({
    calendar: 1,
    starts_at: new Date(Date.now() + (2 + (partyStarts += 1)) * 31 * 60_000).toISOString(),
  }),
  // Walk-in now (decision 0117) on seat 1: a fresh address and key, so the first base books and
  // pays; later ones meet the seat taken, and a refused walk-in must leave nothing behind.
  'POST /api/planner/walk_in': () => ({
    calendar: 1,
    half_hours: 1,
    name: 'Walk In',
    email: `walk-in-${crypto.randomUUID()}@example.com`,
    method: 'cash',
    idempotency_key: crypto.randomUUID(),
  }),
  // The rig map's move (decision 0127): seat 1's session to seat 2; nobody sits on seat 1 in
  // the fuzz venue, so the base is refused in words and each bad field must be too.
  'POST /api/rig_map/move': () => ({ calendar: 1, to: 2 }),
  // Priced from now: a closed fuzz venue refuses it in words (calendar), as it must each bad field.
  'POST /api/planner/walk_in/quote': () => ({ calendar: 1, half_hours: 2, email: '' }),
  'POST /api/planner/book/quote': () => ({
    user: 1,
    slots: [{ calendar: 1, slot: `${futureDate(3)}T16:00` }],
  }),
};

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
};
type Operation = {
  parameters?: { name: string; in: 'path' | 'query' | 'header' }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
/** A body sent as it is (`raw`), with its own content type. */
type Request = { method: string; url: string; payload?: unknown; raw?: string; type?: string };

/** Bodies no JSON encoder would write: broken, nested past reason, prototype keys, wrong type. */
const RAW_BODIES: { raw: string; type: string }[] = [
  { raw: '{"name":', type: 'application/json' },
  { raw: '{"__proto__":{"is_superuser":true}}', type: 'application/json' },
  { raw: '{"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
  { raw: `${'['.repeat(5000)}${']'.repeat(5000)}`, type: 'application/json' },
  { raw: '\u0000', type: 'application/json' },
  { raw: 'name=x', type: 'application/x-www-form-urlencoded' },
  { raw: '{"name":"x"}', type: 'text/plain' },
  { raw: '{"name":"x"}', type: 'application/json; charset=utf-16' },
];
type Path = (string | number)[];

let t: TestApp;
let customer: CreatedUser;
let superuser: CreatedUser;
let rigHeaders: Record<string, string>;
let contract: ApiContract;

beforeAll(async () => {
  t = await createTestApp();
  // Every answer below is also held against the API document (the contract test, issue 32).
  contract = (await ApiContract.of(t.app)).watch(t.app);
  probe = new pg.Client({ connectionString: t.deps.database.url });
  await probe.connect();
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
  // A rig key for seat 1, lap 1 (with track 1 and car 1) and board 1.
  const rig = await t.app.inject({
    method: 'POST',
    url: '/api/rig_keys',
    headers: bearer(superuser.token),
    payload: { calendar: venue.seats[0].id },
  });
  rigHeaders = { authorization: `Rig ${rig.json().key}` };
  const lap = await t.app.inject({
    method: 'POST',
    url: '/api/laps',
    headers: rigHeaders,
    payload: {
      client_lap_id: 'fuzz-1',
      sim: 'ac',
      track: 'fuzz_track',
      car: 'fuzz_car',
      lap_ms: 90_000,
      recorded_at: new Date().toISOString(),
    },
  });
  const board = await t.app.inject({
    method: 'POST',
    url: '/api/boards',
    headers: bearer(superuser.token),
    payload: { name: 'Fuzz board', calculation: 'TIME', track: 1 },
  });
  expect([rig.statusCode, lap.statusCode, board.statusCode]).toEqual([201, 201, 201]);
});
afterAll(async () => {
  await probe.end();
  await t.close();
});

/** A connection of its own, so the fingerprint queries are prepared once and stay cheap. */
let probe: pg.Client;
let fingerprintQuery = '';

/**
 * Per table: live rows and the newest writing transaction, in one query. Any insert, update or
 * delete moves one of them (rate-limit counters are the one table a refusal may write).
 */
async function fingerprint(): Promise<string> {
  if (!fingerprintQuery) {
    const tables = await probe.query<{ name: string }>(`
      select tablename as name from pg_tables
      where schemaname = 'public' and tablename not in ('rate_limit_counters', '__drizzle_migrations')
      order by tablename`);
    fingerprintQuery = tables.rows
      .map(
        ({ name }) =>
          `select '${name}:' || count(*) || ':' || coalesce(max(xmin::text::bigint), 0) as part from "${name}"`,
      )
      .join(' union all ');
  }
  const res = await probe.query<{ part: string }>({ name: 'fingerprint', text: fingerprintQuery });
  return res.rows.map((r) => r.part).join('|');
}

/**
 * The next transaction id PostgreSQL will hand out. Reading it assigns none; when it has not
 * moved, nothing anywhere wrote a row, and the (dearer) fingerprint cannot have changed either.
 */
async function nextXid(): Promise<string> {
  const res = await probe.query<{ x: string }>({
    name: 'next-xid',
    text: 'select pg_snapshot_xmax(pg_current_snapshot())::text as x',
  });
  return res.rows[0].x;
}

/** What changed between two fingerprints, e.g. `reservations:3:812→reservations:4:830`. */
function diff(before: string, after: string): string {
  const a = before.split('|');
  const b = after.split('|');
  return a
    .map((part, i) => (part === b[i] ? null : `${part}→${b[i]}`))
    .filter(Boolean)
    .join(', ');
}

/** The first non-null option of a union, or the schema itself. */
function concrete(schema: Schema): Schema {
  // An object's `anyOf` of `required` lists (one of two fields) is not a union of types.
  const options = schema.properties ? undefined : (schema.anyOf ?? schema.oneOf);
  if (options) return concrete(options.find((o) => o.type !== 'null') ?? options[0]);
  if (schema.allOf?.length) return concrete(schema.allOf[0]);
  return schema;
}

/** Valid text for the patterns and formats the contract uses. */
function exampleString(s: Schema): string {
  const date = futureDate(3);
  // Most specific first: a slot's pattern holds a date's (02-29) too.
  const byPattern: [RegExp, string][] = [
    [/T\(\[01\]\\d\|2\[0-3\]\):\(00\|30\)/, `${date}T12:00`],
    [/^\^\(\?:(0\||\[1-9\])/, '1'],
    [/@/, 'fuzz@example.com'],
    [/^\^\\\/\(/, '/fuzz'],
    [/\[0-9\]\{0,9\}\)\$$/, '1'],
    [/^\^\\d\{3,4\}\$$/, '123'],
    [/^\^\(\[01\]\\d\|2\[0-3\]\):\[0-5\]\\d\$$/, '10:00'],
    [/02-29/, date],
    [/^\^\[1-9\]\\d\{0,9\}\(,/, '1'],
    [/^\^\[1-9\]\\d\{0,8\}\(,/, '1'],
    [/^\^\\d\{4\}\(-/, date],
    [/boards\|laps/, 'boards'],
    [/^\^\\d\{1,15\}\$$/, '1'],
  ];
  if (s.format === 'date-time') return `${date}T12:00:00Z`;
  if (s.pattern) {
    const found = byPattern.find(([re]) => re.test(s.pattern!));
    if (found) return found[1];
  }
  if (s.format === 'date') return date;
  if (s.format === 'email') return 'fuzz@example.com';
  const length = Math.min(Math.max(s.minLength ?? 0, 12), s.maxLength ?? 12);
  return 'fuzz-text-xyz'.slice(0, length).padEnd(length, 'x');
}

/** A valid value for a schema: required properties only, the smallest arrays. */
function example(schema: Schema): unknown {
  if (schema.default !== undefined) return schema.default;
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(
        s.minimum ?? 1,
        s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1,
      );
    case 'boolean':
      return false;
    case 'string':
      return exampleString(s);
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => example(s.items ?? {}));
    case 'object':
    default:
      return Object.fromEntries(
        (s.required ?? []).map((key) => [key, example(s.properties?.[key] ?? {})]),
      );
  }
}

/** Every place in a body a value can go: `name`, `reservations.0.calendar`, `points_rules.table.0`. */
function fieldPaths(schema: Schema, prefix: Path = [], depth = 0): Path[] {
  const s = concrete(schema);
  const out: Path[] = [];
  if (depth > 0) out.push(prefix);
  if (depth > 3) return out;
  for (const [key, child] of Object.entries(s.properties ?? {}))
    out.push(...fieldPaths(child, [...prefix, key], depth + 1));
  if (s.items && depth > 0) out.push(...fieldPaths(s.items, [...prefix, 0], depth + 1).slice(1));
  return out;
}

/** A valid body with the value at `path` replaced (containers on the way made valid first). */
function withValue(schema: Schema, base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const s = concrete(schema);
  const [head, ...rest] = path;
  const childSchema = typeof head === 'number' ? (s.items ?? {}) : (s.properties?.[head] ?? {});
  if (typeof head === 'number') {
    const list =
      Array.isArray(base) && base.length ? [...(base as unknown[])] : [example(childSchema)];
    list[0] = withValue(childSchema, list[0] ?? example(childSchema), rest, value);
    return list;
  }
  const object = base && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  const current = (object as Record<string, unknown>)[head];
  (object as Record<string, unknown>)[head] = withValue(
    childSchema,
    current === undefined || current === null ? example(childSchema) : current,
    rest,
    value,
  );
  return object;
}

const encode = (value: unknown) =>
  encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

/** Every bad request for one route. */
function requestsFor(path: string, method: string, op: Operation): Request[] {
  const template = path.replace(/\{(\w+)\}/g, ':$1');
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const withPath = (overrides: Record<string, string> = {}) =>
    pathParams.reduce((url, name) => url.replace(`:${name}`, overrides[name] ?? '1'), template);
  const out: Request[] = [];
  for (const name of pathParams)
    for (const value of BAD_VALUES) out.push({ method, url: withPath({ [name]: encode(value) }) });
  for (const name of queryParams)
    for (const value of BAD_VALUES)
      out.push({ method, url: `${withPath()}?${name}=${encode(value)}` });
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (schema) {
    const base = { ...(example(schema) as object), ...BASE_OVERRIDES[`${method} ${path}`]?.() };
    for (const field of fieldPaths(schema))
      for (const value of BAD_VALUES)
        out.push({ method, url: withPath(), payload: withValue(schema, base, field, value) });
    for (const payload of WHOLE_BODIES) out.push({ method, url: withPath(), payload });
    for (const { raw, type } of RAW_BODIES) out.push({ method, url: withPath(), raw, type });
    out.push({ method, url: withPath(), payload: { ...(base as object), unknown_field: 1 } });
  }
  return out;
}

/** The request for an operation that should go through: ids 1, the generated valid body. */
function validRequest(path: string, method: string, op: Operation): Request {
  const url = path.replace(/\{\w+\}/g, '1');
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return { method, url };
  return {
    method,
    url,
    payload: { ...(example(schema) as object), ...BASE_OVERRIDES[`${method} ${path}`]?.() },
  };
}

const sessions = new Map<number, Record<string, string>>();

/**
 * A valid token for the role. A fuzzed call that went through may have ended its sessions
 * (logout_all, a password change), so the loop drops the cached tokens after each such call.
 */
async function session(user: CreatedUser | null): Promise<Record<string, string>> {
  if (!user) return {};
  const cached = sessions.get(user.id);
  if (cached) return cached;
  const [row] = await t.db
    .select({ version: users.sessionVersion })
    .from(users)
    .where(eq(users.id, user.id));
  const headers = bearer(await t.deps.tokens.sign(user.id, row.version));
  sessions.set(user.id, headers);
  return headers;
}

/**
 * A 400 from the error handler's safety net: PostgreSQL refused a value that no schema or
 * service check caught. Not a 500, but the same bug one layer down; counted with the 5xx.
 */
function refusedByDatabase(status: number, body: string): boolean {
  if (status !== 400) return false;
  const messages = (JSON.parse(body) as { non_field_errors?: string[] }).non_field_errors ?? [];
  return messages.some((m) => Object.values(VALUE_ERRORS).includes(m));
}

/**
 * Routes that write after answering (forgot-password mails without awaiting, so known addresses
 * answer no slower): after one of them goes through, wait until no transaction starts for a
 * moment, so its write is not taken for the next request's.
 */
const WRITES_AFTER_ANSWER = new Set(['POST /api/users/forgot_password']);

async function settle(method: string, url: string, status: number): Promise<void> {
  if (status >= 400 || !WRITES_AFTER_ANSWER.has(`${method} ${url.split('?')[0]}`)) return;
  // Quiet for a quarter second: rendering the mail takes tens of ms of CPU on a busy machine,
  // and a shorter window let its outbox row land during the next request (a false "changed").
  const deadline = Date.now() + 5000;
  let xid = await nextXid();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await nextXid();
    if (now === xid) return;
    xid = now;
  }
}

type Role = { name: string; headers: () => Promise<Record<string, string>> };
/** Routes a rig calls with its own key instead of a user's token. */
const RIG_ROUTES = new Set([
  'POST /api/laps',
  'POST /api/rig_session/start',
  'POST /api/rig_session/extend',
  'POST /api/rig_session/report',
  'POST /api/rigs/health',
]);

function rolesFor(method: string, path: string): Role[] {
  const roles: Role[] = [
    { name: 'anonymous', headers: () => session(null) },
    { name: 'customer', headers: () => session(customer) },
    { name: 'superuser', headers: () => session(superuser) },
  ];
  if (RIG_ROUTES.has(`${method} ${path}`))
    roles.push({ name: 'rig', headers: () => Promise.resolve(rigHeaders) });
  return roles;
}

/**
 * Refusals that write by design. Signup with an address that has an account answers 400 "user
 * exists" and mails that address a login link (at most one per quarter hour, issue 8).
 */
function writesByDesign(request: Request, status: number, body: string, changed: string): boolean {
  const tables = changed.split(', ').map((part) => part.split(':')[0]);
  return (
    request.method === 'POST' &&
    request.url === '/api/users' &&
    status === 400 &&
    body.includes('"username"') &&
    tables.every((table) => table === 'login_tokens' || table === 'outbox_messages')
  );
}

describe('fuzzing every route with bad input', () => {
  it('never answers 5xx, and a refused request changes no row', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const serverErrors: string[] = [];
    const changedByRefusal: string[] = [];
    let sent = 0;
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(methods)) {
        operations += 1;
        const method = verb.toUpperCase();
        const requests = requestsFor(path, method, op);
        for (const role of rolesFor(method, path)) {
          let before = await fingerprint();
          let xid = await nextXid();
          for (const request of requests) {
            const headers = await role.headers();
            const body =
              request.raw ??
              (request.payload === undefined ? undefined : JSON.stringify(request.payload));
            const res = await t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers:
                body === undefined
                  ? headers
                  : { ...headers, 'content-type': request.type ?? 'application/json' },
              ...(body === undefined ? {} : { payload: body }),
            });
            sent += 1;
            await settle(request.method, request.url, res.statusCode);
            const what = `${res.statusCode} ${request.method} ${request.url.slice(0, 100)} ${body?.slice(0, 160) ?? ''} as ${role.name}`;
            if (res.statusCode >= 500 || refusedByDatabase(res.statusCode, res.body))
              serverErrors.push(`${what}: ${res.body.slice(0, 200)}`);
            const nowXid = await nextXid();
            if (nowXid === xid) continue;
            xid = nowXid;
            const after = await fingerprint();
            if (after === before) continue;
            const changed = diff(before, after);
            before = after;
            if (res.statusCode < 400) {
              sessions.clear(); // it may have ended sessions or changed a role's password
            } else if (!writesByDesign(request, res.statusCode, res.body, changed)) {
              changedByRefusal.push(`${what}: ${changed}`);
            }
          }
        }
      }
    }
    console.log(
      `fuzz: ${sent} requests over ${operations} operations, ${serverErrors.length} answered 5xx or were refused only by the database, ${changedByRefusal.length} refusals changed rows`,
    );
    expect(serverErrors).toEqual([]);
    expect(changedByRefusal).toEqual([]);
  }, 900_000);

  it('imports of damaged results files never answer 5xx, and a refused one changes no row', async () => {
    const files = [
      'ac-results/server-race-monza.json',
      'ac-results/acc-race.json',
      'r3e-results/qualify.and.race.json',
    ].map((name) =>
      shrink(
        JSON.parse(
          decodeResultsFile(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name))),
        ),
      ),
    );
    const bodies = ['', '\u0000', '[]', '{}', 'null', '{"TrackName":', '['.repeat(10_000)].map(
      (payload) => ({ label: JSON.stringify(payload.slice(0, 20)), payload }),
    );
    for (const file of files)
      for (const leaf of leafPaths(file))
        for (const value of FILE_BAD_VALUES)
          bodies.push({
            label: `${leaf.join('.')} = ${JSON.stringify(value)?.slice(0, 40)}`,
            payload: JSON.stringify(replaceAt(file, leaf, value)),
          });
    bodies.push(...damagedRfactorFiles());
    const headers = { ...(await session(superuser)), 'content-type': 'application/json' };
    const problems: string[] = [];
    let before = await fingerprint();
    let xid = await nextXid();
    for (const { label, payload } of bodies) {
      const res = await t.app.inject({ method: 'POST', url: '/api/laps/import', headers, payload });
      const what = `${res.statusCode} ${label}: ${res.body.slice(0, 200)}`;
      if (res.statusCode >= 500 || refusedByDatabase(res.statusCode, res.body)) problems.push(what);
      const nowXid = await nextXid();
      if (nowXid === xid) continue;
      xid = nowXid;
      const after = await fingerprint();
      if (res.statusCode >= 400 && after !== before)
        problems.push(`${what} changed ${diff(before, after)}`);
      before = after;
    }
    console.log(`fuzz: ${bodies.length} damaged results files, ${problems.length} problems`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('an empty PATCH or PUT answers the object and changes no row', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const headers = { ...(await session(superuser)), 'content-type': 'application/json' };
    const problems: string[] = [];
    let tried = 0;
    for (const [path, methods] of Object.entries(doc.paths))
      for (const verb of Object.keys(methods).filter((v) => v === 'patch' || v === 'put')) {
        if (!methods[verb].requestBody) continue;
        const url = path.replace(/\{\w+\}/g, '1');
        const before = await fingerprint();
        const res = await t.app.inject({
          method: verb.toUpperCase() as 'PUT',
          url,
          headers,
          payload: '{}',
        });
        tried += 1;
        const after = await fingerprint();
        if (res.statusCode >= 500 || after !== before)
          problems.push(`${res.statusCode} ${verb.toUpperCase()} ${url}: ${diff(before, after)}`);
      }
    console.log(`fuzz: ${tried} empty PATCH/PUT bodies, ${problems.length} problems`);
    expect(problems).toEqual([]);
  });

  it('a malformed or forged Authorization header is a 401, never a 5xx', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const farExp = Math.floor(Date.now() / 1000) + 3600;
    const valid = (await session(superuser)).authorization.slice('Bearer '.length);
    const forged = [
      'Bearer',
      'Bearer ',
      'Bearer x',
      'Bearer a.b.c',
      `Bearer ${'x'.repeat(10_000)}`,
      `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ user_id: superuser.id, exp: farExp })}.`,
      `Bearer ${valid}x`,
      `Bearer ${await t.deps.tokens.sign(2 ** 31, 0)}`,
      `Bearer ${await t.deps.tokens.sign(2 ** 31 - 1, 0)}`,
      'Rig ',
      'Rig x',
      'Basic Zm9vOmJhcg==',
      'bearer é',
    ];
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const problems: string[] = [];
    let sent = 0;
    let before = await fingerprint();
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [verb, op] of Object.entries(methods)) {
        const request = validRequest(path, verb.toUpperCase(), op);
        for (const authorization of forged) {
          const res = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: { authorization, 'content-type': 'application/json' },
            ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
          });
          sent += 1;
          await settle(request.method, request.url, res.statusCode);
          const what = `${res.statusCode} ${request.method} ${request.url} with ${authorization.slice(0, 60)}`;
          if (res.statusCode >= 500) problems.push(`${what}: ${res.body.slice(0, 200)}`);
          const after = await fingerprint();
          const changed = diff(before, after);
          if (
            res.statusCode >= 400 &&
            after !== before &&
            !writesByDesign(request, res.statusCode, res.body, changed)
          )
            problems.push(`${what} changed ${changed}`);
          before = after;
        }
      }
    console.log(
      `fuzz: ${sent} requests with a forged Authorization header, ${problems.length} problems`,
    );
    expect(problems).toEqual([]);
  }, 300_000);
});

/** A full collection, so a heap figure is what is still held, not what is merely unswept. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024;

describe('large and odd bodies', () => {
  // Issue 27: 2 MB of bytes to the import route ran the server out of heap before its guard ran.
  it('to every route that takes a body, anonymous and signed in: no 5xx, the heap comes back', async () => {
    const bodyLimit = t.deps.config.bodyLimitBytes;
    // From the access table, which every registered route must have a row in (route-access.ts).
    const routes = Object.keys(ROUTE_ACCESS)
      .map((key) => key.split(' ') as [string, string])
      .filter(
        ([method, path]) => ['POST', 'PUT', 'PATCH'].includes(method) && path.startsWith('/api/'),
      );
    const limitOf = (path: string) =>
      path === '/api/laps/import'
        ? IMPORT_LIMIT
        : path === '/api/payments/stripe/webhook'
          ? WEBHOOK_LIMIT
          : bodyLimit;
    const multipart = (size: number) => {
      const boundary = 'fuzzboundary';
      return {
        type: `multipart/form-data; boundary=${boundary}`,
        body: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          crypto.randomBytes(size),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      };
    };
    const bodiesFor = (path: string): { label: string; type: string; body: Buffer | string }[] => {
      const limit = limitOf(path);
      return [
        {
          label: 'JSON just under the limit',
          type: 'application/json',
          body: `{"x":"${'a'.repeat(limit - 16)}"}`,
        },
        {
          label: 'JSON over the limit',
          type: 'application/json',
          body: `{"x":"${'a'.repeat(limit + 1024)}"}`,
        },
        {
          label: '3 MB of bytes',
          type: 'application/octet-stream',
          body: crypto.randomBytes(3 * 1024 * 1024),
        },
        {
          label: '3 MB of bytes as JSON',
          type: 'application/json',
          body: crypto.randomBytes(3 * 1024 * 1024),
        },
        { label: '2 MB multipart', ...multipart(2 * 1024 * 1024) },
        { label: '1 MB of NULs as text', type: 'text/plain', body: '\u0000'.repeat(1024 * 1024) },
        {
          label: 'a form',
          type: 'application/x-www-form-urlencoded',
          body: `a=${'b'.repeat(bodyLimit / 2)}`,
        },
      ];
    };
    const roles: [string, () => Promise<Record<string, string>>][] = [
      ['anonymous', () => session(null)],
      ['superuser', () => session(superuser)],
    ];
    collectGarbage();
    const baseline = heapMb();
    let peak = baseline;
    const problems: string[] = [];
    let sent = 0;
    const started = Date.now();
    for (const [method, path] of routes) {
      const url = path.replace(/:\w+/g, '1');
      const extra =
        method === 'POST' && RIG_ROUTES.has(`${method} ${path}`)
          ? [['rig', async () => rigHeaders] as const]
          : [];
      for (const [role, headers] of [...roles, ...extra])
        for (const { label, type, body } of bodiesFor(path)) {
          const res = await t.app.inject({
            method: method as 'POST',
            url,
            headers: { ...(await headers()), 'content-type': type },
            payload: body,
          });
          sent += 1;
          peak = Math.max(peak, heapMb());
          if (res.statusCode >= 500)
            problems.push(
              `${res.statusCode} ${method} ${path} ${label} as ${role}: ${res.body.slice(0, 200)}`,
            );
          if (res.statusCode < 400) sessions.clear();
        }
    }
    // The import route over its own limit, signed in: refused for its size, not read into memory.
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/laps/import',
      headers: { ...(await session(superuser)), 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(IMPORT_LIMIT + 1024, 0x20),
    });
    sent += 1;
    if (over.statusCode !== 413) problems.push(`import over its limit: ${over.statusCode}`);
    collectGarbage();
    const after = heapMb();
    console.log(
      `fuzz: ${sent} large bodies to ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s; heap ${baseline.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB, ${after.toFixed(0)} MB after GC; ${problems.length} problems`,
    );
    expect(problems).toEqual([]);
    // Each body is a few MB at most: a route that copied one per byte peaked in the gigabytes.
    expect(peak - baseline).toBeLessThan(192);
    expect(after - baseline).toBeLessThan(32);
  }, 240_000);
});

/**
 * A real rFactor 2 file damaged: each value the importer reads replaced by a bad one, cut short
 * at points through it, and an entity bomb in its DOCTYPE.
 */
function damagedRfactorFiles(): { label: string; payload: string }[] {
  const xml = fs
    .readFileSync(path.join(import.meta.dirname, 'fixtures', 'rf2-results', 'race.xml'))
    .toString('latin1');
  const bad = ['', '-1', 'NaN', '1e308', '99999999999999999999', '\u0000', '<x>', 'é'.repeat(5000)];
  const elements = [
    'TrackVenue',
    'TrackCourse',
    'Name',
    'CarType',
    'Position',
    'Laps',
    'BestLapTime',
  ];
  const out: { label: string; payload: string }[] = [];
  for (const element of elements)
    for (const value of bad)
      out.push({
        label: `rF2 <${element}> = ${JSON.stringify(value.slice(0, 20))}`,
        payload: xml.replace(
          new RegExp(`<${element}>[^<]*</${element}>`, 'g'),
          `<${element}>${value}</${element}>`,
        ),
      });
  for (const attr of ['num', 'et', 's1', 'startLap'])
    for (const value of bad.slice(0, 6))
      out.push({
        label: `rF2 ${attr}= ${JSON.stringify(value)}`,
        payload: xml.replace(new RegExp(`${attr}="[^"]*"`, 'g'), `${attr}="${value}"`),
      });
  out.push({
    label: 'rF2 lap time = 1e308',
    payload: xml.replace(/(<Lap [^>]*>)[^<]*</g, '$1' + '1e308<'),
  });
  for (let cut = 1; cut < 10; cut += 1)
    out.push({ label: `rF2 cut at ${cut}/10`, payload: xml.slice(0, (xml.length * cut) / 10) });
  const bomb = `<?xml version="1.0"?><!DOCTYPE rF [<!ENTITY a "${'x'.repeat(1000)}">${Array.from(
    { length: 9 },
    (_, i) =>
      `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`,
  ).join('')}]><rFactorXML><RaceResults><TrackVenue>&j;</TrackVenue></RaceResults></rFactorXML>`;
  out.push({ label: 'rF2 entity bomb', payload: bomb });
  return out;
}

/** The file with every array cut to its first two entries, so an import stays quick. */
function shrink(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(shrink);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v)]));
  return value;
}

/** Every value in a JSON document (the first entry of each array standing for the rest). */
function leafPaths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) {
    if (value.length) out.push(...leafPaths(value[0], [...prefix, 0]));
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      out.push(...leafPaths(child, [...prefix, key]));
  }
  return out;
}

function replaceAt(value: unknown, [head, ...rest]: Path, replacement: unknown): unknown {
  if (head === undefined) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = replaceAt(copy[head], rest, replacement);
  return copy;
}

describe('the Stripe webhook, Stripe configured (decision 0084)', () => {
  // The access table's fuzzing above runs on the local provider, where the webhook is a 404.
  it('hostile signatures and signed hostile events: never 5xx, a refused one stores nothing', async () => {
    const secret = 'whsec_fuzz';
    const stand = new StripeStandIn();
    const s = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_fuzz',
      STRIPE_WEBHOOK_SECRET: secret,
      ...(await stand.start()),
    });
    const sign = new Stripe('sk_test_signing_only').webhooks;
    const count = async () =>
      (await s.db.select({ id: stripeEvents.id }).from(stripeEvents)).length;
    const problems: string[] = [];
    try {
      const post = (
        payload: string | Buffer,
        header: string | undefined,
        type = 'application/json',
      ) =>
        s.app.inject({
          method: 'POST',
          url: '/api/payments/stripe/webhook',
          headers: {
            'content-type': type,
            ...(header === undefined ? {} : { 'stripe-signature': header }),
          },
          payload,
        });
      const now = Math.floor(Date.now() / 1000);
      const good = JSON.stringify({
        id: 'evt_fuzz',
        object: 'event',
        type: 'x',
        data: { object: {} },
      });
      const headers = [
        '',
        't=',
        'v1=',
        `t=${now}`,
        `t=${now},v1=`,
        `t=${now},v1=${'0'.repeat(64)}`,
        `t=abc,v1=${'0'.repeat(64)}`,
        `t=${2 ** 63},v1=zz`,
        ',,,,',
        'x'.repeat(8000),
        `t=${now},v0=${'a'.repeat(64)}`,
        '\u00e9\u00e9',
      ];
      for (const header of headers) {
        const res = await post(good, header);
        if (res.statusCode !== 400)
          problems.push(`header ${header.slice(0, 30)}: ${res.statusCode}`);
      }
      // Signed with the right secret, but not a usable event.
      const bodies = [
        '',
        'not json',
        '{',
        'null',
        '[]',
        '{}',
        '{"id":12,"type":"x","data":{"object":{}}}',
        '{"id":"evt_1","data":{"object":{}}}',
        '{"id":"evt_1","type":"x"}',
        '{"id":"evt_1","type":"x","data":{"object":null}}',
        `{"id":"evt_${'a'.repeat(300)}","type":"x","data":{"object":{}}}`,
        '{"id":"evt_1\' or 1=1","type":"x","data":{"object":{}}}',
        '\u0000',
      ];
      for (const payload of bodies) {
        const res = await post(payload, sign.generateTestHeaderString({ payload, secret }));
        if (res.statusCode !== 400)
          problems.push(`body ${payload.slice(0, 30)}: ${res.statusCode} ${res.body}`);
      }
      if ((await count()) !== 0)
        problems.push(`${await count()} events stored by refused requests`);
      // Signed events of every handled type with hostile objects: stored once, answered 200.
      const types = [
        'payment_intent.succeeded',
        'payment_intent.payment_failed',
        'setup_intent.succeeded',
        'charge.refunded',
        'charge.dispute.created',
        'charge.dispute.closed',
      ];
      let n = 0;
      for (const type of types)
        for (const object of [
          {},
          { metadata: 5, payment_intent: 7 },
          { payment_intent: 'pi_none', metadata: { paddock_key: 'checkout-x' } },
        ]) {
          const payload = JSON.stringify({ id: `evt_fuzz${++n}`, type, data: { object } });
          const res = await post(payload, sign.generateTestHeaderString({ payload, secret }));
          if (res.statusCode !== 200)
            problems.push(`${type} ${JSON.stringify(object)}: ${res.statusCode} ${res.body}`);
        }
      if ((await count()) !== n) problems.push(`${await count()} events stored, not ${n}`);
    } finally {
      await s.close();
      await stand.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the contract', () => {
  it('every answer above is what the API document says (status, content type, body schema)', () => {
    console.log(
      `contract: ${contract.checked} answers checked, ${contract.problems.length} mismatches`,
    );
    expect(contract.checked).toBeGreaterThan(10_000);
    expect(contract.problems).toEqual([]);
  });
});
