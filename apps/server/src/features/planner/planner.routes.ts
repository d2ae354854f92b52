import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, validationErrorBody } from '@paddock/contract/common';
import {
  outOfService,
  outOfServicePlan,
  outOfServiceQuery,
  outOfServiceResult,
  plannerAttendance,
  plannerBlackout,
  plannerBook,
  plannerBookPrice,
  plannerBookQuote,
  plannerDayWire,
  type PlannerDayWire,
  plannerDelete,
  plannerDeleteQuote,
  plannerMove,
  plannerRefundQuote,
  plannerQuery,
  plannerResult,
} from '@paddock/contract/planner';
import type { Deps } from '../../deps';
import * as planner from './planner.service';
import { previewOutOfService, takeOutOfService } from './out-of-service';
import { walkInQuoteRequest, walkInRequest, walkInResponse } from '@paddock/contract/walk-in';
import { quoteWalkIn, walkIn } from './walk-in';
import { refundContext } from '../refunds/refund-context';
import { bookingsCounter } from '../../plugins/business-metrics';

const errors = {
  400: validationErrorBody,
  401: detailBody,
  402: detailBody,
  403: detailBody,
  404: detailBody,
};

/**
 * The daily planner (staff: reservations.change_reservation): one call for a location's day,
 * and one call per With Selected action, each whole or not at all.
 */
export const plannerRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const refunds = refundContext(deps, (error, message) => app.log.error({ err: error }, message));
    const tags = ['planner'];

    app.get(
      '/planner',
      {
        schema: {
          tags,
          summary:
            "A location's (or every location's) day: open slots, seats, every reservation and blackout",
          querystring: plannerQuery,
          response: { 200: plannerDayWire, ...errors },
        },
      },
      // Already JSON: a string is sent untouched by Fastify's serializer; its shape is the schema's.
      async (request, reply) =>
        reply
          .type('application/json; charset=utf-8')
          .send((await planner.plannerDay(db, request.query)) as unknown as PlannerDayWire),
    );
    app.post(
      '/planner/blackout',
      {
        schema: {
          tags,
          summary: 'Black out free times (all of them, or none)',
          body: plannerBlackout,
          response: { 201: plannerResult, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await planner.blackout(db, request.authUser!, request.body)),
    );
    app.post(
      '/planner/delete',
      {
        schema: {
          tags,
          summary: 'Delete reservations or blackouts (all of them, or none)',
          body: plannerDelete,
          response: { 200: plannerResult, ...errors },
        },
      },
      async (request) => planner.deleteEntries(db, request.authUser!, request.body, refunds),
    );
    app.post(
      '/planner/delete/quote',
      {
        schema: {
          tags,
          summary:
            'What deleting these reservations would give back, booking by booking (nothing changes)',
          body: plannerDeleteQuote,
          response: { 200: plannerRefundQuote, ...errors },
        },
      },
      async (request) => planner.quoteDelete(db, request.authUser!, request.body),
    );
    app.post(
      '/planner/book',
      {
        schema: {
          tags,
          summary: 'Book free times for a customer: paid by their card now, or at the desk',
          body: plannerBook,
          response: { 201: plannerResult, ...errors },
        },
      },
      async (request, reply) => {
        const booked = await planner.bookFor(db, deps.payments, request.authUser!, request.body);
        bookingsCounter.inc({ via: 'planner' });
        // Its receipt or pay-at-the-desk confirmation was owed with the booking (issue 41).
        app.receipts.wake();
        return reply.status(201).send(booked);
      },
    );
    app.post(
      '/planner/move',
      {
        schema: {
          tags,
          summary: 'Move a reservation to another seat or time',
          body: plannerMove,
          response: { 200: plannerResult, ...errors },
        },
      },
      async (request) => planner.move(db, request.authUser!, request.body, refunds),
    );
    app.post(
      '/planner/attendance',
      {
        schema: {
          tags,
          summary: 'Mark reservations checked in or no-show (or clear the mark)',
          body: plannerAttendance,
          response: { 200: plannerResult, ...errors },
        },
      },
      async (request) => planner.markAttendance(db, request.authUser!, request.body, refunds),
    );
    app.post(
      '/planner/book/quote',
      {
        schema: {
          tags,
          summary: 'What booking these times for this customer costs (nothing is booked)',
          body: plannerBookQuote,
          response: { 200: plannerBookPrice, ...errors },
        },
      },
      async (request) => planner.quoteBooking(db, request.body),
    );
    app.get(
      '/planner/out_of_service',
      {
        schema: {
          tags,
          summary: 'What taking a seat out of service for a range would do to its bookings',
          querystring: outOfServiceQuery,
          response: { 200: outOfServicePlan, ...errors },
        },
      },
      async (request) => previewOutOfService(db, request.query),
    );
    app.post(
      '/planner/out_of_service',
      {
        schema: {
          tags,
          summary:
            'Take a seat out of service: move its bookings to comparable seats or cancel and refund them, black out the range',
          body: outOfService,
          response: { 200: outOfServiceResult, ...errors },
        },
      },
      async (request) => takeOutOfService(refunds, request.authUser!, request.body),
    );
    app.post(
      '/planner/walk_in/quote',
      {
        schema: {
          tags,
          summary: 'What a walk-in now on this seat for this long costs (nothing is booked)',
          body: walkInQuoteRequest,
          response: { 200: plannerBookPrice, ...errors },
        },
      },
      async (request) => quoteWalkIn(db, request.body),
    );
    app.post(
      '/planner/walk_in',
      {
        schema: {
          tags,
          summary:
            'Walk-in now: book a free seat from the current half-hour and take the payment at the desk, in one go',
          body: walkInRequest,
          response: { 201: walkInResponse, ...errors },
        },
      },
      async (request, reply) => {
        const done = await walkIn(refunds, request.authUser!, request.body);
        bookingsCounter.inc({ via: 'planner' });
        return reply.status(201).send(done);
      },
    );
  };
