import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';

/** Vite names built assets `<name>-<hash>.<ext>` under /assets: their bytes never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else of the app (index.html, sw.js, favicon) is checked with the server each time. */
export const REVALIDATE = 'no-cache';

/**
 * Brotli or gzip for answers the routes make (the API's JSON, the app's index.html), whichever
 * the client prefers. Brotli at quality 4: the default (11) costs tens of milliseconds for a
 * large JSON answer, 4 is close to gzip's speed and still smaller. Built files are compressed
 * once at build time (Vite's precompress step) and sent as they are. Event streams hijack the
 * reply and are never buffered. Decision 0035.
 *
 * An answer of up to 64 KB is compressed in one call on the event loop (well under a millisecond
 * at quality 4), not through a zlib stream on libuv's threads: a streamed answer stays held,
 * with its pipeline, until the stream is done, long enough to survive into the old generation,
 * and on a 2-core server those held answers made a major collection every second or two
 * (decision 0111). @fastify/compress's own default on 2 cores is 8 KB; a dashboard's page is more.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    // Request bodies are not taken compressed: nothing sends them, and it would be one more
    // way past the body limit.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    syncThreshold: 65536,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

/**
 * The built single-page app: its files (precompressed copies preferred), cache headers per kind
 * of file, and no source maps (they stay on disk for error reports). The not-found handler sends
 * index.html (`reply.sendFile`) for every other non-API path.
 */
export async function serveWeb(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    // Source maps, the build stamp and Vite's manifest (dot files) are not for the public.
    allowedPath: (pathname) => !pathname.endsWith('.map') && !pathname.startsWith('/.'),
    setHeaders: (res, file) => {
      const immutable = path.relative(dist, file).startsWith(`assets${path.sep}`);
      res.setHeader('cache-control', immutable ? IMMUTABLE : REVALIDATE);
    },
  });
}
