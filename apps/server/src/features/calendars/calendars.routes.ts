import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AvailResponse,
  type ParallelResponse,
  availQuery,
  availQuoteQuery,
  availQuoteResponse,
  availResponse,
  calendar,
  calendarsQuery,
  calendarType,
  parallelQuery,
  parallelResponse,
} from '@paddock/contract/calendars';
import { detailBody, idParam, paginated, paginationQuery } from '@paddock/contract/common';
import type { Deps } from '../../app';
import type { ChangeFeed } from '../../plugins/changes';
import { AnswerCache } from './answer-cache';
import {
  callerOf,
  getCalendar,
  listCalendars,
  listCalendarTypes,
  locationAvailability,
  parallelAvailabilityJson,
  seatAvailabilityJson,
} from './calendars.service';

/** Already JSON (see AnswerCache): Fastify sends a string untouched; its shape is the schema's. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Seats, seat types and availability: public reads (anonymous callers get the customer view). */
export const calendarsRoutes =
  (deps: Deps & { changes: ChangeFeed }): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const answers = new AnswerCache(deps.changes);
    const tags = ['calendars'];

    app.get(
      '/caltypes',
      {
        schema: { tags, querystring: paginationQuery, response: { 200: paginated(calendarType) } },
      },
      async (request) => listCalendarTypes(db, request.query),
    );
    app.get(
      '/calendars',
      { schema: { tags, querystring: calendarsQuery, response: { 200: paginated(calendar) } } },
      async (request) => listCalendars(db, request.query, callerOf(request.authUser)),
    );
    app.get(
      '/calendars/parallel',
      {
        schema: {
          tags,
          summary: 'Seats where N racers fit side by side for M sessions from one start',
          querystring: parallelQuery,
          response: { 200: parallelResponse },
        },
      },
      async (request, reply) =>
        reply
          .type(JSON_TYPE)
          .send(
            (await parallelAvailabilityJson(
              answers,
              () => request.changesHeard(),
              db,
              request.query,
              callerOf(request.authUser),
            )) as unknown as ParallelResponse,
          ),
    );
    app.get(
      '/calendars/:id',
      { schema: { tags, params: idParam, response: { 200: calendar, 404: detailBody } } },
      async (request) => getCalendar(db, request.params.id),
    );
    app.get(
      '/calendars/:id/avail',
      {
        schema: {
          tags,
          summary: "One seat's slots on a local date, keyed by slot",
          params: idParam,
          querystring: availQuery,
          response: { 200: availResponse, 404: detailBody },
        },
      },
      async (request, reply) =>
        reply
          .type(JSON_TYPE)
          .send(
            (await seatAvailabilityJson(
              answers,
              () => request.changesHeard(),
              db,
              request.params.id,
              request.query.date,
              callerOf(request.authUser),
            )) as unknown as AvailResponse,
          ),
    );
    app.get(
      '/avail/quote',
      {
        schema: {
          tags,
          summary: 'Free seats per slot at a location on a local date',
          querystring: availQuoteQuery,
          response: { 200: availQuoteResponse },
        },
      },
      async (request) => locationAvailability(db, request.query, callerOf(request.authUser)),
    );
  };
