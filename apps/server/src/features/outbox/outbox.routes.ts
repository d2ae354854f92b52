import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxMessage, outboxSummary } from '@paddock/contract/outbox';
import { idParam, paginated, paginationQuery } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { getOutboxMessage, listOutbox } from './outbox.service';

export const outboxRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;

    app.get(
      '/outbox',
      {
        schema: {
          tags: ['outbox'],
          summary: 'Mail kept when no SMTP server is configured, newest first (no bodies)',
          querystring: paginationQuery,
          response: { 200: paginated(outboxSummary), ...errors },
        },
      },
      async (request) => listOutbox(db, requireUser(request), request.query),
    );

    app.get(
      '/outbox/:id',
      {
        schema: {
          tags: ['outbox'],
          summary: 'One kept mail with its body (its login links too)',
          params: idParam,
          response: { 200: outboxMessage, ...errors },
        },
      },
      async (request) => getOutboxMessage(db, requireUser(request), request.params.id),
    );
  };
