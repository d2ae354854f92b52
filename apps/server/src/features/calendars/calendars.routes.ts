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
  calendarTypeCreate,
  calendarTypeUpdate,
  seatAdmin,
  seatAdminList,
  seatCreate,
  seatUpdate,
  parallelQuery,
  parallelResponse,
} from '@paddock/contract/calendars';
import { detailBody, idParam, paginated, paginationQuery } from '@paddock/contract/common';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
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
import {
  createCalendarType,
  createSeat,
  listLocationSeats,
  updateCalendarType,
  updateSeat,
} from './seat-setup.service';

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

    // Setting up seats (issue 16): staff with calendars.change_calendar.
    app.post(
      '/caltypes',
      {
        schema: {
          tags,
          summary: 'Add a seat type',
          body: calendarTypeCreate,
          response: { 201: calendarType },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createCalendarType(db, requireUser(request), request.body)),
    );
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/caltypes/:id',
        schema: {
          tags,
          summary: 'Edit a seat type',
          params: idParam,
          body: calendarTypeUpdate,
          response: { 200: calendarType, 404: detailBody },
        },
        handler: async (request) =>
          updateCalendarType(db, requireUser(request), request.params.id, request.body),
      });
    }
    app.get(
      '/locations/:id/seats',
      {
        schema: {
          tags,
          summary: 'Every seat of a location, inactive ones too, in display order',
          params: idParam,
          response: { 200: seatAdminList, 404: detailBody },
        },
      },
      async (request) => listLocationSeats(db, request.params.id),
    );
    app.post(
      '/calendars',
      {
        schema: { tags, summary: 'Add a seat', body: seatCreate, response: { 201: seatAdmin } },
      },
      async (request, reply) =>
        reply.status(201).send(await createSeat(db, requireUser(request), request.body)),
    );
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/calendars/:id',
        schema: {
          tags,
          summary: 'Edit a seat; moving it to another location needs it to have no future bookings',
          params: idParam,
          body: seatUpdate,
          response: { 200: seatAdmin, 404: detailBody },
        },
        handler: async (request) =>
          updateSeat(db, requireUser(request), request.params.id, request.body),
      });
    }
  };
