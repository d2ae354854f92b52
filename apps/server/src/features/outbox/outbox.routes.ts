import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { outboxMessage, outboxResend, outboxSummary } from '@paddock/contract/outbox';
import { idParam, paginated, paginationQuery } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { getOutboxMessage, listOutbox, resendOutboxMessage } from './outbox.service';

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

    app.post(
      '/outbox/:id/resend',
      {
        schema: {
          tags: ['outbox'],
          summary:
            'The same mail again to the same address (a new kept copy when no SMTP server is set)',
          params: idParam,
          response: { 201: outboxResend, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await resendOutboxMessage(
              db,
              { mailer: deps.mailer, server: Boolean(deps.config.smtpUrl) },
              requireUser(request),
              request.params.id,
            ),
          ),
    );
  };
