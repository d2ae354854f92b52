import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Brotli and gzip copies of every built text file, written once at build time at the highest
 * levels, so the server sends them as they are (`@fastify/static` preCompressed) instead of
 * compressing the same bytes on every request (decision 0035).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'paddock-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) =>
            e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
          );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    // The web's `zod` is zod with its JIT switched off (CSP), loaded only where a schema is.
    alias: [
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/ws': { target: 'ws://localhost:3000', ws: true } },
  },
  // Source maps stay on disk for error reports; 'hidden' leaves out the sourceMappingURL
  // comment, and the server does not serve .map files.
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically is one file: the first paint needs all of it
        // anyway, and a dozen small shared chunks each cost a request and compress worse
        // (decision 0045). Lazy chunks keep their automatic splitting.
        codeSplitting: {
          // A group takes only the modules it names (the shell's tag names all of its own).
          includeDependenciesRecursively: false,
          groups: [
            { name: 'shell', tags: ['$initial'] },
            // The booking screen's opening queries (decision 0061): its prefetch module and the
            // query definitions it shares with the screen, one file instead of seven small ones.
            {
              name: 'booking-data',
              test: /src\/features\/reservations\/(api\/(search-parallel|get-seat-availability|list-booking-locations|list-calendars|get-nearest-location|list-calendar-types)|routes\/reservation-locations-prefetch)\.ts$/,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // A screen test renders the whole app in jsdom: seconds on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
