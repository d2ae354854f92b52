import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser } from '../test/factories';
import { isApiUrl, registerSecurityHeaders, securityHeaders } from './security-headers';

/** What only a document needs: never on an API answer (decision 0058). */
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

let dist: string;
let t: TestApp;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Paddock</title>');
  fs.writeFileSync(path.join(dist, 'assets/index-Ab12.js'), 'console.log(1);');
  t = await createTestApp({}, { webDist: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The app's document set: its own CSP (Stripe's scripts and frames), framing by itself only. */
function expectDocumentSet(headers: Record<string, unknown>, url: string) {
  expect(headers['x-content-type-options'], url).toBe('nosniff');
  expect(headers['x-frame-options'], url).toBe('SAMEORIGIN');
  const csp = String(headers['content-security-policy']);
  expect(csp, url).toContain("default-src 'self'");
  expect(csp, url).toContain('https://js.stripe.com');
  expect(csp, url).toContain("object-src 'none'");
  for (const name of DOCUMENT_ONLY) expect(headers[name], `${url} ${name}`).toBeDefined();
}

describe('security headers', () => {
  it("are Helmet's, worked out once", () => {
    const headers = securityHeaders({
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameSrc: ['https:'] } },
    });
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain('frame-src https:');
    expect(headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(Object.isFrozen(headers)).toBe(true);
  });

  it('on API answers (data, an error, an unknown route): the short API set only', async () => {
    for (const url of ['/api/locations', '/api/users/me', '/api/no-such-route', '/api']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
      for (const name of DOCUMENT_ONLY) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
  });

  it("on the app's documents and files, and the API's own docs: the full document set", async () => {
    for (const url of ['/', '/leaderboards', '/assets/index-Ab12.js', '/api/docs']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBeLessThan(400);
      expectDocumentSet(res.headers, url);
    }
  });

  it('on an API answer that is an HTML page: the document set', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, {
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", 'https://js.stripe.com'] },
      },
    });
    app.get('/api/receipt', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send('<!doctype html><p>Receipt</p>'),
    );
    app.get('/api/data', async () => ({ ok: true }));
    const page = await app.inject({ url: '/api/receipt' });
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['content-security-policy']).toContain('https://js.stripe.com');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const data = await app.inject({ url: '/api/data' });
    expect(data.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    await app.close();
  });

  // Issue 27: token and account answers could stay in a browser's or a proxy's cache.
  it('keep every API answer out of caches, signing in too; images keep theirs', async () => {
    const user = await createUser(t);
    for (const [password, status] of [
      [user.password, 200],
      ['wrong-password', 401],
    ] as const) {
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { username: user.email, password },
      });
      expect(signIn.statusCode).toBe(status);
      expect(signIn.headers['cache-control']).toBe('no-store');
    }
    for (const url of ['/api/settings', '/api/boards', '/api/locations', '/api/no-such-route']) {
      const res = await t.app.inject({ url });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await t.app.inject({ url: '/assets/index-Ab12.js' })).headers['cache-control']).toMatch(
      /immutable/,
    );
  });

  // Issue 27: the pages could frame any https: site and connect to any ws:/wss: host.
  it("let the app's pages connect to and frame only what they use", async () => {
    const directive = (csp: string, name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `));
    const csp = String((await t.app.inject({ url: '/' })).headers['content-security-policy']);
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://api.stripe.com");
    expect(directive(csp, 'frame-src')).toBe(
      "frame-src 'self' https://js.stripe.com https://hooks.stripe.com",
    );
    // "View Car" embeds the venue's car page: its host, and only its host, joins frame-src.
    const staff = await createUser(t, { isStaff: true, isSuperuser: true });
    const saved = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(staff.token),
      payload: { car_details_url: 'https://cars.example.com/car/{id}' },
    });
    expect(saved.statusCode).toBe(200);
    await expect
      .poll(async () =>
        directive(
          String((await t.app.inject({ url: '/' })).headers['content-security-policy']),
          'frame-src',
        ),
      )
      .toBe(
        "frame-src 'self' https://js.stripe.com https://hooks.stripe.com https://cars.example.com",
      );
  });

  it('tell the API from the rest by the path', () => {
    for (const url of ['/api', '/api/', '/api?x=1', '/api/boards/1/results?count=15'])
      expect(isApiUrl(url), url).toBe(true);
    for (const url of ['/', '/apiary', '/api-keys', '/api/docs', '/api/docs/static/index.html'])
      expect(isApiUrl(url), url).toBe(false);
  });
});
