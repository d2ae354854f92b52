import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, paginated, paginationQuery } from '@paddock/contract/common';
import { location, locationUpdate } from '@paddock/contract/locations';
import type { Deps } from '../../app';

import { getLocation, listLocations, nearestLocation, updateLocation } from './locations.service';

export const locationsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['locations'];

    app.get(
      '/locations',
      { schema: { tags, querystring: paginationQuery, response: { 200: paginated(location) } } },
      async (request) => listLocations(db, request.query),
    );
    app.get(
      '/locations/nearest',
      {
        schema: {
          tags,
          summary: "The signed-in user's location, else the first",
          response: { 200: location, 404: detailBody },
        },
      },
      async (request) => nearestLocation(db, request.authUser?.id ?? null),
    );
    app.get(
      '/locations/:id',
      { schema: { tags, params: idParam, response: { 200: location, 404: detailBody } } },
      async (request) => getLocation(db, request.params.id),
    );
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/locations/:id',
        schema: { tags, params: idParam, body: locationUpdate, response: { 200: location } },
        handler: async (request) => updateLocation(db, request.params.id, request.body),
      });
    }
  };
