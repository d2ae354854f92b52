import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { createTestApp, type TestApp } from './test-app';

/**
 * Issue 27: a body dripped one byte every 2 s was closed after ~67 s, not the configured
 * REQUEST_TIMEOUT_SECONDS of 30 (node checks the request timeout only every 30 s by default).
 * A real socket, since `inject` has no clock of its own.
 */
const TIMEOUT_S = 2;
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ REQUEST_TIMEOUT_SECONDS: String(TIMEOUT_S) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** Seconds until the server closes a request whose body comes one byte every `everyMs`. */
async function dripped(everyMs: number, giveUpMs: number): Promise<{ s: number; answer: string }> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  socket.write(
    'POST /api/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{',
  );
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  const drip = setInterval(() => socket.write(' '), everyMs);
  const closed = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('close', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), giveUpMs)),
  ]);
  clearInterval(drip);
  socket.destroy();
  return { s: closed ? (Date.now() - started) / 1000 : Infinity, answer };
}

describe('a client that sends its request slowly', () => {
  it('is cut off close to REQUEST_TIMEOUT_SECONDS, however steadily it drips', async () => {
    const { s, answer } = await dripped(200, 12_000);
    expect(s).toBeGreaterThanOrEqual(TIMEOUT_S - 0.1);
    expect(s).toBeLessThan(TIMEOUT_S + 1.5);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);
});
