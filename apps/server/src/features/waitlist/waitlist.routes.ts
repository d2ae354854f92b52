import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { detailBody, idParam, validationErrorBody } from '@paddock/contract/common';
import { waitlistList, waitlistRequest } from '@paddock/contract/refunds';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { joinWaitlist, leaveWaitlist, listMyWaitlist } from './waitlist.service';

const entry = z.object({
  id: z.number().int(),
  location: z.number().int(),
  slot: z.string(),
  position: z.number().int(),
  status: z.string(),
});

export const waitlistRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = {
      db: deps.database.db,
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      logError: (error: unknown, message: string) => app.log.error({ err: error }, message),
    };
    app.get(
      '/waitlist',
      {
        schema: {
          tags: ['waitlist'],
          summary: "The caller's own upcoming waitlist entries, soonest first",
          response: { 200: waitlistList, 401: detailBody, 403: detailBody },
        },
      },
      async (request) => listMyWaitlist(deps.database.db, requireUser(request)),
    );
    app.delete(
      '/waitlist/:id',
      {
        schema: {
          tags: ['waitlist'],
          summary: 'Leave one of your own waitlist entries (a seat held for you goes to the next)',
          params: idParam,
          response: {
            204: z.undefined(),
            400: validationErrorBody,
            401: detailBody,
            403: detailBody,
            404: detailBody,
          },
        },
      },
      async (request, reply) => {
        await leaveWaitlist(ctx, requireUser(request), request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/waitlist',
      {
        schema: {
          tags: ['waitlist'],
          summary: 'Tell me when a seat frees up at this location and time (a full slot only)',
          body: waitlistRequest,
          response: {
            201: entry,
            400: validationErrorBody,
            401: detailBody,
            403: detailBody,
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await joinWaitlist(deps.database.db, requireUser(request), request.body)),
    );
  };
