import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  page,
  pageContent,
  pageDetail,
  pageListQuery,
  pagePreview,
  pageUpdate,
  pageWrite,
} from '@paddock/contract/pages';
import { idParam, paginated } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import { requireUser } from '../../plugins/auth';
import type { Deps } from '../../deps';

import * as pages from './pages.service';

export const pagesRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;

    app.get(
      '/pages',
      {
        schema: {
          tags: ['pages'],
          summary: 'Custom pages (those with a menu name are nav links)',
          querystring: pageListQuery,
          response: { 200: paginated(page), ...errors },
        },
      },
      async (request) => pages.listPages(db, request.query),
    );

    app.get(
      '/pages/:id',
      {
        schema: {
          tags: ['pages'],
          params: idParam,
          response: { 200: pageDetail, ...errors },
        },
      },
      async (request) => pages.getPage(db, request.params.id),
    );

    app.get(
      '/pages/:id/content',
      {
        schema: {
          tags: ['pages'],
          summary: 'The sanitised HTML of a page',
          params: idParam,
          response: { 200: pageContent, ...errors },
        },
      },
      async (request) => {
        const { id, name, content } = await pages.getPage(db, request.params.id);
        return { id, name, content };
      },
    );

    app.post(
      '/pages',
      {
        schema: { tags: ['pages'], body: pageWrite, response: { 201: pageDetail, ...errors } },
      },
      async (request, reply) =>
        reply.status(201).send(await pages.createPage(db, requireUser(request), request.body)),
    );

    app.post(
      '/pages/preview',
      {
        schema: {
          tags: ['pages'],
          summary: 'The HTML as it would be stored and served (sanitised); saves nothing',
          body: pagePreview,
          response: { 200: pagePreview, ...errors },
        },
      },
      async (request) => pages.previewPage(request.body.content),
    );

    for (const method of ['patch', 'put'] as const) {
      app[method](
        '/pages/:id',
        {
          schema: {
            tags: ['pages'],
            params: idParam,
            body: pageUpdate,
            response: { 200: pageDetail, ...errors },
          },
        },
        async (request) =>
          pages.updatePage(db, requireUser(request), request.params.id, request.body),
      );
    }

    app.delete(
      '/pages/:id',
      {
        schema: {
          tags: ['pages'],
          params: idParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await pages.deletePage(db, requireUser(request), request.params.id);
        return reply.status(204).send();
      },
    );
  };
