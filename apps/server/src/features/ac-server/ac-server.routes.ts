import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, validationErrorBody } from '@paddock/contract/common';
import { acServerCommand, acServerStatus } from '@paddock/contract/races';
import type { AcServerLink } from './ac-server.service';

const errors = {
  400: validationErrorBody,
  401: detailBody,
  403: detailBody,
  404: detailBody,
  409: detailBody,
};

/** The party's AC dedicated server (docs/decisions/0031): start, stop and its commands. */
export const acServerRoutes =
  (link: AcServerLink): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/races/events/:id/server',
      {
        schema: {
          tags: ['races'],
          summary:
            'The party’s AC dedicated server: start, stop, next_session, restart_session, broadcast_chat, kick',
          params: idParam,
          body: acServerCommand,
          response: { 200: acServerStatus, ...errors },
        },
      },
      async (request) => link.command(request.params.id, request.body),
    );
  };
