import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, ok } from '@paddock/contract/common';
import {
  cancelQuote,
  cancelQuoteQuery,
  cancelRequest,
  cancelResponse,
  moveQuote,
  moveQuoteQuery,
  moveRequest,
  moveResponse,
} from '@paddock/contract/refunds';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { retryRefund } from './card-refunds';
import { refundContext } from './refund-context';
import { cancelReservation, markNoShow, quoteCancel } from './refunds.service';
import { moveReservation, quoteMove } from './move-reservation';
import { undoNoShow } from './undo-no-show';

/** Cancellations and refunds (docs/decisions/0027-cancellations-and-refunds.md). */
export const refundsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = refundContext(deps, (error, message) => app.log.error({ err: error }, message));
    const tags = ['refunds'];

    app.get(
      '/reservations/:id/cancel_quote',
      {
        schema: {
          tags,
          summary: 'What cancelling this booking now gives back, and how',
          params: idParam,
          querystring: cancelQuoteQuery,
          response: { 200: cancelQuote, ...errors },
        },
      },
      async (request) =>
        quoteCancel(ctx.db, requireUser(request), request.params.id, request.query.refund),
    );
    app.post(
      '/reservations/:id/cancel',
      {
        schema: {
          tags,
          summary:
            'Cancel a booking and refund it (staff choose: policy, full, or none with a reason)',
          params: idParam,
          body: cancelRequest,
          response: { 200: cancelResponse, ...errors },
        },
      },
      async (request) =>
        cancelReservation(ctx, requireUser(request), request.params.id, request.body),
    );
    app.get(
      '/reservations/:id/move_quote',
      {
        schema: {
          tags,
          summary: 'What moving this booking to another seat or time would do with the money',
          params: idParam,
          querystring: moveQuoteQuery,
          response: { 200: moveQuote, ...errors },
        },
      },
      async (request) => quoteMove(ctx.db, requireUser(request), request.params.id, request.query),
    );
    app.post(
      '/reservations/:id/move',
      {
        schema: {
          tags,
          summary:
            'Move a booking to another free seat or time at the same location, keeping the payment',
          params: idParam,
          body: moveRequest,
          response: { 200: moveResponse, ...errors },
        },
      },
      async (request) =>
        moveReservation(ctx, requireUser(request), request.params.id, request.body),
    );
    app.post(
      '/reservations/:id/no_show',
      {
        schema: {
          tags,
          summary: 'Mark a no-show: refunded as a late cancellation',
          params: idParam,
          response: { 200: cancelResponse, ...errors },
        },
      },
      async (request) => markNoShow(ctx, requireUser(request), request.params.id),
    );
    app.post(
      '/reservations/:id/no_show/undo',
      {
        schema: {
          tags,
          summary:
            'Undo a no-show: back to attended-unknown, only while the no-show gave nothing back',
          params: idParam,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => undoNoShow(ctx, requireUser(request), request.params.id),
    );
    app.post(
      '/refunds/:id/retry',
      {
        schema: {
          tags,
          summary: 'Send a declined card refund again',
          params: idParam,
          response: { 200: cancelResponse, ...errors },
        },
      },
      async (request) => retryRefund(ctx, requireUser(request), request.params.id),
    );
  };
