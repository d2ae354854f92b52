import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { and, eq, isNull } from 'drizzle-orm';
import { reservations } from './db/schema/booking';
import { bearer, createUser } from './test/factories';
import { createVenue, futureDate } from './test/booking-factories';
import { until } from './test/until';
import {
  buildServer,
  cloneDatabase,
  startServer,
  type ServerProcess,
} from './test/compiled-server';

// Issue 29: SIGTERM drains the compiled server (decision 0080).

let target: Awaited<ReturnType<typeof cloneDatabase>>;
let server: ServerProcess | null = null;

beforeAll(async () => {
  buildServer();
  target = await cloneDatabase();
}, 180_000);
afterAll(async () => {
  server?.proc.kill('SIGKILL');
  await target?.drop();
});

/** A POST whose body is sent in two parts: in flight from the first part until `finish()`. */
function slowPost(url: string, path: string, token: string, body: object) {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  let result: { status: number; connection: string | undefined; body: string } | Error | null =
    null;
  const req = http.request(`${url}${path}`, {
    method: 'POST',
    headers: {
      ...bearer(token),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    },
  });
  req.on('response', (res) => {
    let data = '';
    res.on('data', (d: Buffer) => (data += d.toString()));
    res.on('end', () => {
      result = { status: res.statusCode!, connection: res.headers.connection, body: data };
    });
  });
  req.on('error', (e) => (result = e));
  req.write(text.slice(0, half));
  return {
    finish: () => req.end(text.slice(half)),
    get result() {
      return result;
    },
  };
}

/** An event stream's raw text, and whether the server ended it. */
function rawStream(url: string) {
  const state = { text: '', ended: false };
  http.get(url, (res) => {
    res.on('data', (d: Buffer) => (state.text += d.toString()));
    res.on('end', () => (state.ended = true));
    res.on('error', () => {});
  });
  return state;
}

describe('SIGTERM', () => {
  it('finishes a request in flight, refuses new connections, tells streams and sockets to reconnect, exits 0 within the bound', async () => {
    const venue = await createVenue(target, { seats: 1 });
    const customer = await createUser(target);
    const staff = await createUser(target, {
      isStaff: true,
      permissions: ['leaderboards.can_manage_race_events'],
    });
    const boundMs = 3000;
    server = await startServer(target, { SHUTDOWN_TIMEOUT_SECONDS: String(boundMs / 1000) });
    const { url } = server;

    const stream = rawStream(`${url}/api/events?topics=boards`);
    const eventId = (
      (await (
        await fetch(`${url}/api/calendars/${venue.seats[0].id}`, {
          headers: bearer(staff.token),
        })
      ).json()) as { event: number }
    ).event;
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws/launcher/events/${eventId}/`, {
      headers: bearer(staff.token),
    });
    let closeCode: number | null = null;
    socket.on('close', (code) => (closeCode = code));
    const socketMessages: unknown[] = [];
    socket.on('message', (m) => socketMessages.push(m));
    await until(() => socketMessages.length > 0 && stream.text.includes('event: hello'));

    const slot = `${futureDate(3)}T11:00`;
    const booking = slowPost(url, '/api/reservations', customer.token, {
      calendar: venue.seats[0].id,
      slot,
    });
    // Never finished: it holds the process until the bound cuts it.
    const stuck = slowPost(url, '/api/reservations', customer.token, {
      calendar: venue.seats[0].id,
      slot: `${futureDate(3)}T12:00`,
    });
    await new Promise((r) => setTimeout(r, 300));

    const signalled = Date.now();
    server.proc.kill('SIGTERM');
    // The stream ends with a short `retry` (the reconnect hint); the socket closes with 1012.
    await until(() => stream.ended && closeCode !== null);
    expect(stream.text).toMatch(/retry: 250\n\n$/);
    expect(closeCode).toBe(1012);
    // No new connections (a kept-alive one would still be answered, told `Connection: close`).
    await expect(
      new Promise((resolve, reject) =>
        net.connect(server!.port, '127.0.0.1').on('connect', resolve).on('error', reject),
      ),
    ).rejects.toThrow(/ECONNREFUSED/);

    booking.finish();
    await until(() => booking.result !== null);
    expect(booking.result).toMatchObject({ status: 201, connection: 'close' });
    const rows = await target.db
      .select()
      .from(reservations)
      .where(
        and(
          eq(reservations.calendarId, venue.seats[0].id),
          eq(reservations.slot, slot),
          isNull(reservations.cancelledAt),
        ),
      );
    expect(rows).toHaveLength(1);

    const exit = await server.exited;
    const took = exit.at - signalled;
    console.log(`SIGTERM to exit: ${took} ms (bound ${boundMs} ms, one request never finished)`);
    expect(exit.code).toBe(0);
    expect(took).toBeGreaterThanOrEqual(boundMs - 100);
    expect(took).toBeLessThan(boundMs + 2000);
    // The request that never finished had its connection cut.
    await until(() => stuck.result !== null);
    expect(stuck.result).toBeInstanceOf(Error);
    expect(server.output()).toMatch(/still in flight after 3000 ms/);
    server = null;
  }, 60_000);
});
