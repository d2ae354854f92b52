import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The SVG flags of `flag-icons`, served by the app at /flags/4x3/{code}.svg (works offline). */
export async function registerFlags(app: FastifyInstance) {
  const root = path.join(path.dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');
  await app.register(fastifyStatic, {
    root,
    prefix: '/flags/4x3/',
    decorateReply: false,
    index: false,
    maxAge: '7d',
    immutable: true,
  });
}
