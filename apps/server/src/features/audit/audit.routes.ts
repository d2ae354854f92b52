import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditEvent, auditQuery } from '@paddock/contract/audit';
import { detailBody, paginated, validationErrorBody } from '@paddock/contract/common';
import type { Deps } from '../../deps';
import { listAudit } from './audit.service';

/** The audit trail of staff actions (audit.view_event), newest first, with filters. */
export const auditRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags: ['audit'],
          summary: 'Staff actions: who did what, when, to what (filters: user, actor, action)',
          querystring: auditQuery,
          response: {
            200: paginated(auditEvent),
            400: validationErrorBody,
            401: detailBody,
            403: detailBody,
            404: detailBody,
          },
        },
      },
      async (request) => listAudit(deps.database.db, request.query),
    );
  };
