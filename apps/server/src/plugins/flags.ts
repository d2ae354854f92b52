import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The SVG flags of `flag-icons`, served by the app at /flags/4x3/{code}.svg (works offline). */
export async function registerFlags(app: FastifyInstance) {
  const root = path.join(path.dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');
  await app.register(
    async (flags) => {
      // An unknown code is a 404, not the single-page app's index.html.
      flags.setNotFoundHandler((_request, reply) =>
        reply.status(404).send({ detail: 'Not found.' }),
      );
      await flags.register(fastifyStatic, {
        root,
        prefix: '/',
        decorateReply: false,
        index: false,
        maxAge: '7d',
        immutable: true,
      });
    },
    { prefix: '/flags/4x3' },
  );
}
