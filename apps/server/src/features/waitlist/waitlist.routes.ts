import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { detailBody, validationErrorBody } from '@paddock/contract/common';
import { waitlistRequest } from '@paddock/contract/refunds';
import type { Deps } from '../../app';
import { requireUser } from '../../plugins/auth';
import { joinWaitlist } from './waitlist.service';

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
