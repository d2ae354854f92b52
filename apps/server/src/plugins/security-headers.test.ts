import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { securityHeaders } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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

  it('are on every answer: API, error and not found', async () => {
    for (const url of ['/api/locations', '/api/users/me', '/api/no-such-route']) {
      const res = await t.app.inject({ url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain('https://js.stripe.com');
      expect(csp, url).toContain("object-src 'none'");
    }
  });
});
