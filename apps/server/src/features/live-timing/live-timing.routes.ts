import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, validationErrorBody } from '@paddock/contract/common';
import {
  timingAnswer,
  timingReplayAnswer,
  timingReplayRequest,
} from '@paddock/contract/live-timing';
import type { Deps } from '../../deps';
import { currentTower } from './live-timing.service';
import { replayFeed } from './replay-feed';
import type { LiveTimingHub } from './timing-hub';

/** The live timing tower of an event, for the wall, the phone page and anyone (decision 0122). */
export const liveTimingRoutes =
  (deps: Deps, hub: LiveTimingHub): FastifyPluginAsyncZod =>
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
    app.post(
      '/races/events/:id/timing/replay',
      {
        schema: {
          tags: ['races'],
          summary:
            'Plays a recorded server feed into the event’s tower (a demo on the wall; no laps or results stored)',
          params: idParam,
          body: timingReplayRequest,
          response: {
            202: timingReplayAnswer,
            400: validationErrorBody,
            401: detailBody,
            403: detailBody,
            404: detailBody,
            409: detailBody,
          },
        },
      },
      async (request, reply) => {
        const answer = await replayFeed(
          deps.database.db,
          hub,
          request.params.id,
          request.body,
          (err) => request.log.error({ err }, 'timing replay failed'),
        );
        return reply.code(202).send(answer);
      },
    );
  };
