import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
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
import {
  callerOf,
  getCalendar,
  listCalendars,
  listCalendarTypes,
  locationAvailability,
  parallelAvailability,
  seatAvailability,
} from './calendars.service';

/** Seats, seat types and availability: public reads (anonymous callers get the customer view). */
export const calendarsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
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
      async (request) => parallelAvailability(db, request.query, callerOf(request.authUser)),
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
      async (request) =>
        seatAvailability(db, request.params.id, request.query.date, callerOf(request.authUser)),
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
