import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, paginated, paginationQuery } from '@paddock/contract/common';
import {
  location,
  locationCreate,
  locationUpdate,
  slotPreview,
  slotPreviewRequest,
} from '@paddock/contract/locations';
import { requireUser } from '../../plugins/auth';
import type { Deps } from '../../deps';

import {
  createLocation,
  getLocation,
  listLocations,
  nearestLocation,
  previewSlots,
  updateLocation,
} from './locations.service';

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
    app.post(
      '/locations',
      {
        schema: {
          tags,
          summary: 'Add a location (locations.change_location)',
          body: locationCreate,
          response: { 201: location },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLocation(db, requireUser(request), request.body)),
    );
    app.post(
      '/locations/slot-preview',
      {
        schema: {
          tags,
          summary: 'The bookable slots that opening hours give on a date (DST days included)',
          body: slotPreviewRequest,
          response: { 200: slotPreview },
        },
      },
      async (request) => previewSlots(request.body),
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
        handler: async (request) =>
          updateLocation(db, requireUser(request), request.params.id, request.body),
      });
    }
  };
