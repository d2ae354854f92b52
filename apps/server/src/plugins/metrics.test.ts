import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser } from '../test/factories';
import { createVenue, futureDate } from '../test/booking-factories';
import { ConfigError, loadConfig } from '../config';
import { saveTestCard } from '../test/cards';
import { AC_RESULTS } from '../test/fixtures';

const TOKEN = 'metrics-token-for-the-test-0123456789';
let off: TestApp;
let on: TestApp;
beforeAll(async () => {
  [off, on] = await Promise.all([createTestApp(), createTestApp({ METRICS_TOKEN: TOKEN })]);
});
afterAll(async () => {
  await Promise.all([off.close(), on.close()]);
});

/** The scrape as `series → value`. */
async function scrape(): Promise<Record<string, number>> {
  const res = await on.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  const out: Record<string, number> = {};
  for (const line of res.body.split('\n')) {
    const m = /^(\S+) (\S+)$/.exec(line);
    if (m && !line.startsWith('#')) out[m[1]] = Number(m[2]);
  }
  return out;
}

describe('/metrics', () => {
  it('is off by default: not found, whatever the header', async () => {
    for (const headers of [{}, bearer(TOKEN)]) {
      const res = await off.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('nodejs_');
    }
  });

  it('answers only its token when METRICS_TOKEN is set', async () => {
    for (const headers of [{}, bearer('wrong-token-wrong-token-wrong'), { authorization: TOKEN }]) {
      const res = await on.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('nodejs_');
    }
  });

  it('counts requests by route, the process, the pool, the feed and the business', async () => {
    const venue = await createVenue(on, { seats: 1 });
    const customer = await createUser(on);
    await on.app.inject({ method: 'GET', url: '/api/locations' });
    const booked = await on.app.inject({
      method: 'POST',
      url: '/api/reservations',
      headers: bearer(customer.token),
      payload: { calendar: venue.seats[0].id, slot: `${futureDate(2)}T18:00` },
    });
    expect(booked.statusCode).toBe(201);
    const res = await on.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toMatch(
      /paddock_http_request_duration_seconds_count\{method="GET",route="\/api\/locations",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /paddock_http_request_duration_seconds_count\{method="POST",route="\/api\/reservations",status="201"\} [1-9]/,
    );
    expect(text).toMatch(/nodejs_heap_size_used_bytes \d/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    expect(text).toMatch(/paddock_db_pool_connections\{state="max"\} 5/);
    expect(text).toMatch(/paddock_db_pool_waiting 0/);
    expect(text).toMatch(/paddock_change_feed_lag_seconds 0\.\d+/);
    expect(text).toMatch(/paddock_launcher_sockets 0/);
    expect(text).toMatch(/paddock_event_streams \d/);
    expect(text).toMatch(/paddock_bookings_total\{via="reservation"\} [1-9]/);
    expect(text).toContain('# TYPE paddock_mails_total counter');
  });

  it('counts checkouts by outcome, the seats they booked, refunds, laps and mails', async () => {
    const venue = await createVenue(on, { seats: 1 });
    const customer = await createUser(on);
    await saveTestCard(on, customer);
    const staff = await createUser(on, { isStaff: true, permissions: ['laps.change_lap'] });
    const before = await scrape();
    const quoted = await on.app.inject({
      method: 'POST',
      url: '/api/reservations/checkouts/quote',
      headers: bearer(customer.token),
      payload: { reservations: [{ calendar: venue.seats[0].id, slot: `${futureDate(5)}T18:00` }] },
    });
    const paid = await on.app.inject({
      method: 'POST',
      url: `/api/reservations/checkouts/${quoted.json().checkout_id}/process`,
      headers: bearer(customer.token),
      payload: {},
    });
    expect(paid.statusCode).toBe(200);
    const cancelled = await on.app.inject({
      method: 'POST',
      url: `/api/reservations/${paid.json().reservations[0].id}/cancel`,
      headers: bearer(customer.token),
      payload: {},
    });
    expect(cancelled.statusCode).toBe(200);
    const imported = await on.app.inject({
      method: 'POST',
      url: '/api/laps/import',
      headers: { ...bearer(staff.token), 'content-type': 'application/octet-stream' },
      payload: fs.readFileSync(path.join(AC_RESULTS, 'server-race-monza.json')),
    });
    const lapsAdded = imported.json().laps_added as number;
    expect(lapsAdded).toBeGreaterThan(0);
    // The booking confirmation goes after the answer.
    await on.app.receipts.close();
    const after = await scrape();
    const grew = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect(grew('paddock_checkouts_total{outcome="paid"}')).toBe(1);
    expect(grew('paddock_bookings_total{via="checkout"}')).toBe(1);
    expect(grew('paddock_refunds_total')).toBe(1);
    expect(grew('paddock_laps_ingested_total{source="import"}')).toBe(lapsAdded);
    expect(grew('paddock_mails_total{outcome="sent"}')).toBeGreaterThanOrEqual(2);
  });

  it('refuses a short token at start', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });
});
