import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, paginated } from '@paddock/contract/common';
import {
  car,
  carUpdate,
  carWrite,
  carsQuery,
  catalogQuery,
  group,
  groupWrite,
  track,
  trackUpdate,
  trackWrite,
} from '@paddock/contract/laps';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import * as catalog from './catalog.service';

/** Tracks, cars and car groups: read by anyone, kept by staff (leaderboards.change_board). */
export const catalogRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['catalogue'];

    app.get(
      '/tracks',
      {
        schema: {
          tags,
          summary: 'Tracks; by popularity (laps in 90 days) when the search is empty',
          querystring: catalogQuery,
          response: { 200: paginated(track), ...errors },
        },
      },
      async (request) => catalog.listTracks(db, request.query),
    );
    app.post(
      '/tracks',
      { schema: { tags, body: trackWrite, response: { 201: track, ...errors } } },
      async (request, reply) => reply.status(201).send(await catalog.createTrack(db, request.body)),
    );
    app.get(
      '/tracks/:id',
      { schema: { tags, params: idParam, response: { 200: track, ...errors } } },
      async (request) => catalog.getTrack(db, request.params.id),
    );
    app.patch(
      '/tracks/:id',
      {
        schema: {
          tags,
          params: idParam,
          body: trackUpdate,
          response: { 200: track, ...errors },
        },
      },
      async (request) => catalog.updateTrack(db, request.params.id, request.body),
    );

    app.get(
      '/cars',
      {
        schema: { tags, querystring: carsQuery, response: { 200: paginated(car), ...errors } },
      },
      async (request) => catalog.listCars(db, request.query),
    );
    app.post(
      '/cars',
      { schema: { tags, body: carWrite, response: { 201: car, ...errors } } },
      async (request, reply) => reply.status(201).send(await catalog.createCar(db, request.body)),
    );
    app.get(
      '/cars/:id',
      { schema: { tags, params: idParam, response: { 200: car, ...errors } } },
      async (request) => catalog.getCar(db, request.params.id),
    );
    app.patch(
      '/cars/:id',
      {
        schema: { tags, params: idParam, body: carUpdate, response: { 200: car, ...errors } },
      },
      async (request) => catalog.updateCar(db, request.params.id, request.body),
    );

    app.get('/groups', { schema: { tags, response: { 200: z.array(group) } } }, async () =>
      catalog.listGroups(db),
    );
    app.post(
      '/groups',
      { schema: { tags, body: groupWrite, response: { 201: group, ...errors } } },
      async (request, reply) =>
        reply.status(201).send(await catalog.createGroup(db, request.body.name)),
    );
  };
