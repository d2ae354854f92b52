import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT_MAX, integerRangePattern } from '@paddock/contract/common';
import { SLOT_DATE_MESSAGE } from '@paddock/contract/calendars';
import { createTestApp, type TestApp } from './test-app';
import { bearer, createUser } from './factories';
import { createVenue, futureDate } from './booking-factories';
import { ApiContract } from './api-contract';
import { URL_TOO_LONG } from '../plugins/errors';

// The contract test itself runs in the authorization matrix and the fuzz suite (each ends by
// listing the mismatches it found). Here: that the checker catches a mismatch, and the answers
// and document entries issue 32 found wrong.

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked freely in assertions */
type Doc = {
  paths: Record<string, Record<string, Record<string, any>>>;
  components: { schemas: Record<string, any> };
};
/* eslint-enable @typescript-eslint/no-explicit-any */

let t: TestApp;
let doc: Doc;
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'warn' },
    { logStream: { write: (line: string) => void logLines.push(line) } },
  );
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
});
afterAll(() => t.close());

const answer = (statusCode: number, body: unknown, type = 'application/json') => ({
  statusCode,
  headers: { 'content-type': type },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the contract checker', () => {
  it('passes an answer the document describes', () => {
    const contract = new ApiContract(doc);
    contract.check('GET', '/api/pages/7', answer(404, { detail: 'Not found.' }));
    contract.check('GET', '/api/settings', answer(401, { detail: 'x', code: 'token_not_valid' }));
    expect(contract.problems).toEqual([]);
    expect(contract.checked).toBe(2);
  });

  it('lists an undocumented status, a body off its schema and an undocumented content type', () => {
    const contract = new ApiContract(doc);
    contract.check('GET', '/api/pages/7', answer(418, { detail: 'teapot' }));
    contract.check('GET', '/api/pages/7', answer(404, { detail: 42 }));
    contract.check('GET', '/api/settings', answer(401, { detail: 'x', code: 'made_up' }));
    contract.check('GET', '/api/pages/7', answer(404, 'Not found', 'text/plain'));
    contract.check('POST', '/api/nowhere', answer(200, {}));
    expect(contract.problems.map((p) => p.split(' (e.g.')[0])).toEqual([
      'GET /api/pages/{id}: status 418 is not documented',
      'GET /api/pages/{id} 404: body does not match the schema (/detail must be string)',
      'GET /api/settings 401: body does not match the schema (/code must be equal to one of the allowed values)',
      'GET /api/pages/{id} 404: content type text/plain is not documented (application/json)',
      'POST /api/nowhere: 200 from an undocumented operation',
    ]);
  });
});

describe('the API document says what the server takes', () => {
  const param = (path: string, method: string, name: string) =>
    (doc.paths[path][method].parameters as { name: string; schema: { pattern?: string } }[]).find(
      (p) => p.name === name,
    )!.schema;

  it('an id is 1…2147483647 and a page size at most 100, exactly', () => {
    const id = new RegExp(param('/api/pages/{id}', 'get', 'id').pattern!);
    for (const ok of ['1', '9', '10', '99', '2147483647', '1000000000'])
      expect(id.test(ok), ok).toBe(true);
    for (const bad of ['0', '01', '-1', '2147483648', '9999999999', '1e3', ''])
      expect(id.test(bad), bad).toBe(false);
    const size = new RegExp(param('/api/reservations', 'get', 'page_size').pattern!);
    expect(['1', '25', '100'].every((v) => size.test(v))).toBe(true);
    expect(['0', '101', '1000'].some((v) => size.test(v))).toBe(false);
  });

  it('integerRangePattern matches exactly the numerals of its range', () => {
    for (const [min, max] of [
      [1, INT_MAX],
      [1, 48],
      [-INT_MAX, INT_MAX],
      [7, 1234],
    ]) {
      const re = new RegExp(integerRangePattern(min, max));
      const probe = [min - 1, min, max, max + 1, 0, -1, 10, 99, 100, 1000, 2 ** 31, -(2 ** 31)];
      for (let n = -1100; n <= 1300; n += 1) probe.push(n);
      for (let n = 1; n < 2 ** 33; n = n * 3 + 7) probe.push(n, -n);
      for (const n of probe)
        expect(re.test(String(n)), `${n} in ${min}…${max}`).toBe(n >= min && n <= max);
    }
  });

  it('a slot is a real date, in the document and on the server', async () => {
    const body = doc.paths['/api/reservations'].post.requestBody.content['application/json'].schema;
    const slot = new RegExp(body.properties.slot.pattern);
    expect(slot.test(`${futureDate(3)}T10:30`)).toBe(true);
    for (const bad of [
      '0000-00-00T00:00',
      '2030-02-30T10:00',
      '2031-02-29T10:00',
      '2030-04-31T10:00',
    ])
      expect(slot.test(bad), bad).toBe(false);
    expect(slot.test('2032-02-29T10:00')).toBe(true);
    // `slot`, or `time` to derive it from: one of them is required.
    expect(body.anyOf).toEqual([{ required: ['slot'] }, { required: ['time'] }]);

    const venue = await createVenue(t, { seats: 1 });
    const customer = await createUser(t);
    for (const [url, payload] of [
      ['/api/reservations', { calendar: venue.seats[0].id, slot: '0000-00-00T00:00' }],
      ['/api/waitlist', { location: venue.location.id, slot: '2030-02-30T10:00' }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: bearer(customer.token),
        payload,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ slot: [SLOT_DATE_MESSAGE] });
    }
  });

  it('bodies read without a schema, the event stream, the 401 codes and the renewed token', () => {
    const images = doc.paths['/api/images'].post.requestBody;
    expect(images.content['multipart/form-data'].schema.required).toEqual(['file']);
    const laps = doc.paths['/api/laps/import'].post.requestBody;
    expect(Object.keys(laps.content)).toEqual(['application/octet-stream']);
    expect(Object.keys(doc.paths['/api/events'].get.responses['200'].content)).toEqual([
      'text/event-stream',
    ]);
    expect(doc.components.schemas.Unauthorized.properties.code.enum).toEqual(
      expect.arrayContaining(['token_not_valid', 'user_not_found', 'rig_key_required']),
    );
    const password = doc.paths['/api/users/{id}/update_password'].post.responses['200'];
    expect(Object.keys(password.headers)).toEqual(['X-Session-Token']);
    const list = doc.paths['/api/reservations'].get.responses;
    expect(list['404'].description).toContain('Invalid page.');
    expect(doc.paths['/api/pages'].post.responses['413']).toBeDefined();
    expect(doc.paths['/api/pages/{id}'].get.responses['414']).toBeDefined();
    const feed = doc.paths['/api/feed.ics'].get;
    expect(feed.security).toEqual([{ bearer: [] }, { feedToken: [] }]);
    expect(feed.description ?? '').not.toContain('Anonymous');
  });
});

describe('answers the router gives', () => {
  it('a path value over the router limit: 414 in our shape, with our headers, logged', async () => {
    const long = 'x'.repeat(5000);
    logLines.length = 0;
    const res = await t.app.inject({ url: `/api/pages/${long}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ detail: URL_TOO_LONG });
    expect(res.body).not.toContain('xxxx');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-request-id']).toBeTruthy();
    const logged = logLines.map((line) => JSON.parse(line) as { msg: string; urlLength?: number });
    expect(logged.find((l) => l.msg === 'path value over the router limit')?.urlLength).toBe(
      `/api/pages/${long}`.length,
    );
    expect(logLines.join('')).not.toContain(long);
  });

  it('a method the path does not take: 405 with Allow, not 404', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/settings' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
    expect(res.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
    const byId = await t.app.inject({ method: 'POST', url: '/api/pages/3' });
    expect(byId.statusCode).toBe(405);
    expect(String(byId.headers.allow).split(', ')).toEqual(
      expect.arrayContaining(['DELETE', 'GET', 'PATCH', 'PUT']),
    );
    // A path no route has is still a 404.
    expect((await t.app.inject({ method: 'POST', url: '/api/no-such-thing' })).statusCode).toBe(
      404,
    );
  });
});
