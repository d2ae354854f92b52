import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeUrl, UNSAFE_URL_MESSAGE } from '@paddock/contract/common';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser } from '../test/factories';
import { createLocation } from '../test/booking-factories';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNSAFE = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example.com',
  '/\\evil.example.com',
  'https://user@evil.example.com',
  'ftp://example.com/file',
];
const SAFE = ['', '/thanks', '/pages/2?x=1#top', 'https://example.com', 'http://example.com/a?b=c'];

describe('isSafeUrl', () => {
  it('takes http(s) and site paths only', () => {
    for (const url of SAFE) expect(isSafeUrl(url), url).toBe(true);
    for (const url of UNSAFE) expect(isSafeUrl(url.trim()), url).toBe(false);
  });
});

describe('staff-entered URLs', () => {
  it('refuse other schemes with a 400 naming the field, and change nothing', async () => {
    const admin = await createUser(t, { isSuperuser: true, isStaff: true });
    const location = await createLocation(t, { postBookingUrl: '/thanks' });
    const patch = (url: string, payload: object) =>
      t.app.inject({ method: 'PATCH', url, headers: bearer(admin.token), payload });
    for (const bad of UNSAFE) {
      const res = await patch(`/api/locations/${location.id}`, { post_booking_url: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ post_booking_url: [UNSAFE_URL_MESSAGE] });
    }
    const settings = await patch('/api/settings', {
      nav_links: [{ label: 'Boom', url: 'javascript:alert(1)' }],
      logo_url: 'data:image/svg+xml,<svg onload=alert(1)>',
    });
    expect(settings.statusCode).toBe(400);
    expect(Object.keys(settings.json()).sort()).toEqual(['logo_url', 'nav_links.0.url']);
    const stored = await t.app.inject({ url: `/api/locations/${location.id}` });
    expect(stored.json().post_booking_url).toBe('/thanks');
    const ok = await patch(`/api/locations/${location.id}`, {
      post_booking_url: 'https://example.com/thanks',
    });
    expect(ok.statusCode).toBe(200);
  });
});
