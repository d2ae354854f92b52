import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, validationErrorBody } from '@paddock/contract/common';
import { timingAnswer } from '@paddock/contract/live-timing';
import type { Deps } from '../../deps';
import { currentTower } from './live-timing.service';

/** The live timing tower of an event, for the wall, the phone page and anyone (decision 0122). */
export const liveTimingRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/races/events/:id/timing',
      {
        schema: {
          tags: ['races'],
          summary:
            'The event’s live timing tower (null while none of its sessions ran); follow the `timing` topic of /events',
          params: idParam,
          response: { 200: timingAnswer, 400: validationErrorBody, 404: detailBody },
        },
      },
      async (request) => ({ tower: await currentTower(deps.database.db, request.params.id) }),
    );
  };
