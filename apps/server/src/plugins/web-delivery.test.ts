import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createTestApp, type TestApp } from '../test/test-app';
import { IMMUTABLE, registerCompression } from './web-delivery';

// A built app as Vite leaves it: hashed assets with their source maps and precompressed copies.
const script = `console.log(${JSON.stringify('paddock '.repeat(400))});`;
let dist: string;
let t: TestApp;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  const write = (name: string, body: string | Buffer) =>
    fs.writeFileSync(path.join(dist, name), body);
  write(
    'index.html',
    `<!doctype html><script type="module" src="/assets/index-Ab12.js"></script>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}`,
  );
  const html = fs.readFileSync(path.join(dist, 'index.html'));
  write('index.html.br', zlib.brotliCompressSync(html));
  write('index.html.gz', zlib.gzipSync(html));
  write('sw.js', 'self.addEventListener("fetch", () => {});');
  write('.built-from', '1700000000000');
  write('assets/index-Ab12.js', script);
  write('assets/index-Ab12.js.map', '{"version":3,"sources":["main.tsx"]}');
  write('assets/index-Ab12.js.br', zlib.brotliCompressSync(script));
  write('assets/index-Ab12.js.gz', zlib.gzipSync(script));
  t = await createTestApp({}, { webDist: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('web delivery', () => {
  it('sends hashed assets compressed as the client prefers, cached for a year', async () => {
    const br = await get('/assets/index-Ab12.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gzip = await get('/assets/index-Ab12.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Ab12.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('has index.html and the service worker checked on every visit', async () => {
    for (const url of ['/', '/reservations/all', '/sw.js']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const page = await get('/leaderboards', 'gzip');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.rawPayload).toString()).toContain('/assets/index-Ab12.js');
  });

  it('never serves source maps or the build stamp', async () => {
    const map = await get('/assets/index-Ab12.js.map');
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('sources');
    // Outside /assets an unknown file is the app's page, as any path is.
    const stamp = await get('/.built-from');
    expect(stamp.body).not.toContain('1700000000000');
  });

  it('compresses API answers and keeps small ones as they are', async () => {
    const spec = await get('/api/openapi.json', 'br');
    expect(spec.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(spec.rawPayload).toString())).toHaveProperty(
      'openapi',
    );
    const gzip = await get('/api/openapi.json', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toContain('accept-encoding');

    const small = await get('/api/no-such-route', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ detail: 'Not found.' });
  });

  it('compresses an answer of up to 64 KB in one call, with its length, and streams a larger one', async () => {
    // In one call nothing holds the answer while a zlib stream finishes on another thread: on a
    // chain those held answers made a major collection every second or two (decision 0111).
    const app = Fastify();
    await registerCompression(app);
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `row ${i}` }));
    app.get('/mid', async () => rows(1500));
    app.get('/large', async () => rows(8000));
    try {
      const mid = await app.inject({ url: '/mid', headers: { 'accept-encoding': 'br' } });
      expect(JSON.stringify(rows(1500)).length).toBeGreaterThan(16_384);
      expect(mid.headers['content-encoding']).toBe('br');
      expect(Number(mid.headers['content-length'])).toBe(mid.rawPayload.length);
      expect(JSON.parse(zlib.brotliDecompressSync(mid.rawPayload).toString())).toEqual(rows(1500));

      const large = await app.inject({ url: '/large', headers: { 'accept-encoding': 'gzip' } });
      expect(JSON.stringify(rows(8000)).length).toBeGreaterThan(65_536);
      expect(large.headers['content-encoding']).toBe('gzip');
      expect(large.headers['content-length']).toBeUndefined();
      expect(JSON.parse(zlib.gunzipSync(large.rawPayload).toString())).toEqual(rows(8000));
    } finally {
      await app.close();
    }
  });
});
