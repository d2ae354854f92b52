import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, paginated, queryBoolean } from '@paddock/contract/common';
import {
  type Lap,
  board,
  boardResultsQuery,
  boardUpdate,
  boardWrite,
  lap,
  pointsEntry,
  teamsQuery,
} from '@paddock/contract/laps';
import type { FastifyRequest } from 'fastify';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { hasPermission } from '../../plugins/auth';
import * as boards from './boards.service';
import type { StandingsCache } from './standings-cache';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Staff who keep boards also see the inactive ones. */
const managesBoards = (request: FastifyRequest) =>
  hasPermission(request.authUser, 'leaderboards.change_board');

export const boardsRoutes =
  (deps: Deps, standings: StandingsCache): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['leaderboards'];

    app.get(
      '/boards',
      {
        schema: {
          tags,
          summary: 'Active boards (with all=true, staff also get inactive ones)',
          querystring: z.object({ all: queryBoolean.optional() }),
          response: { 200: z.array(board), ...errors },
        },
      },
      async (request) =>
        boards.listBoards(db, request.query.all === true && managesBoards(request)),
    );
    app.post(
      '/boards',
      { schema: { tags, body: boardWrite, response: { 201: board, ...errors } } },
      async (request, reply) => reply.status(201).send(await boards.createBoard(db, request.body)),
    );
    app.get(
      '/boards/:id',
      { schema: { tags, params: idParam, response: { 200: board, ...errors } } },
      async (request) => boards.getBoard(db, request.params.id, managesBoards(request)),
    );
    app.patch(
      '/boards/:id',
      {
        schema: {
          tags,
          params: idParam,
          body: boardUpdate,
          response: { 200: board, ...errors },
        },
      },
      async (request) => boards.updateBoard(db, request.params.id, request.body),
    );
    app.delete(
      '/boards/:id',
      { schema: { tags, params: idParam, response: { 204: z.undefined(), ...errors } } },
      async (request, reply) => {
        await boards.deleteBoard(db, request.params.id);
        return reply.status(204).send();
      },
    );
    app.get(
      '/boards/:id/results',
      {
        schema: {
          tags,
          summary: "A TIME board's entries: each racer's best valid lap",
          params: idParam,
          querystring: boardResultsQuery,
          response: { 200: z.array(lap), ...errors },
        },
      },
      // Already JSON (kept for a second, see timeResultsJson): its bytes are sent as they are
      // (Fastify does not serialise a Buffer; its shape is the schema's). A kept answer is sent
      // at once, without a promise.
      (request, reply) => {
        const { id } = request.params;
        const { count, car, tyre } = request.query;
        const filter = { carId: car, tyre };
        const includeInactive = managesBoards(request);
        reply.type(JSON_TYPE);
        const known = boards.knownTimeResults(id, count, includeInactive, filter);
        if (known) {
          reply.send(known as unknown as Lap[]);
          return;
        }
        return boards
          .timeResultsJson(db, id, count, includeInactive, filter)
          .then((body) => void reply.send(body as unknown as Lap[]));
      },
    );
    app.get(
      '/teams',
      {
        schema: {
          tags,
          summary: "A POINTS board's standings (teams; a racer without a team stands alone)",
          querystring: teamsQuery,
          response: { 200: paginated(pointsEntry), ...errors },
        },
      },
      async (request) => {
        const { board, page, page_size } = request.query;
        const { count, results } = await boards.pointsStandings(
          db,
          board,
          managesBoards(request),
          { page, page_size },
          new Date(),
          standings.lookup(() => request.changesHeard()),
        );
        return {
          count,
          page_count: Math.max(1, Math.ceil(count / page_size)),
          page_size,
          results,
        };
      },
    );
  };
