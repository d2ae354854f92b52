import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthBody, readyBody } from '@paddock/contract/health';
import type { Readiness } from './readiness';

/**
 * Probes for load balancers and orchestrators: `/health` says the process answers (liveness:
 * restart it when this fails), `/ready` says it can serve (readiness: send it traffic). Neither
 * needs a token, and neither says more than which part is down.
 */
export const healthRoutes =
  (readiness: Readiness): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'The process answers (liveness)',
          response: { 200: healthBody },
        },
      },
      async (_request, reply) => {
        void reply.header('cache-control', 'no-store');
        return { status: 'ok' as const };
      },
    );

    app.get(
      '/ready',
      {
        schema: {
          tags: ['health'],
          summary:
            'The database answers, its migrations are applied and the change feed listens (readiness); 503 naming the part that is down',
          response: { 200: readyBody, 503: readyBody },
        },
      },
      async (_request, reply) => {
        const body = await readiness.check();
        void reply.header('cache-control', 'no-store');
        return reply.status(body.status === 'ready' ? 200 : 503).send(body);
      },
    );
  };
