import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam } from '@paddock/contract/common';
import { screenList, screenReload } from '@paddock/contract/screens';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import * as screens from './screens.service';

/** The venue's wall screens, for staff (screens.change_screen): who is there, and reload. */
export const screensRoutes =
  (deps: Deps & { build: string | null }): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['screens'];

    app.get(
      '/screens',
      {
        schema: {
          tags,
          summary: 'Wall screens that checked in, newest first, and the build now served',
          response: { 200: screenList, ...errors },
        },
      },
      async () => ({ build: deps.build, results: await screens.listScreens(db) }),
    );
    app.post(
      '/screens/reload',
      {
        schema: {
          tags,
          summary: 'Tell one screen (screen_id) or every screen to reload',
          body: screenReload,
          response: { 202: detailBody, ...errors },
        },
      },
      async (request, reply) => {
        await screens.orderReload(db, request.body.screen_id ?? null);
        return reply.status(202).send({ detail: 'Reload sent.' });
      },
    );
    app.delete(
      '/screens/:id',
      {
        schema: {
          tags,
          summary: 'Forget a screen (it reappears when it checks in again)',
          params: idParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await screens.forgetScreen(db, request.params.id);
        return reply.status(204).send();
      },
    );
  };
