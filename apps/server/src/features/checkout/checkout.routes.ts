import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkoutIdParam,
  processResponse,
  quoteRequest,
  quoteResponse,
} from '@paddock/contract/checkout';
import { detailBody } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import type { ReceiptSender } from './receipts-owed';
import { processCheckout, quoteCheckout } from './checkout.service';
import { checkoutContextOf } from './checkout-context';
import { countCheckout } from './checkout-metrics';

export const checkoutRoutes =
  (deps: Deps, receipts: ReceiptSender): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = checkoutContextOf(deps, receipts, (error, message) =>
      app.log.error({ err: error }, message),
    );
    const tags = ['checkout'];

    app.post(
      '/reservations/checkouts/quote',
      {
        schema: {
          tags,
          summary: 'Price seats (fees, voucher, tax); holds nothing',
          body: quoteRequest,
          response: { 200: quoteResponse, ...errors },
        },
      },
      async (request) => quoteCheckout(ctx, requireUser(request), request.body),
    );
    app.post(
      '/reservations/checkouts/:id/process',
      {
        schema: {
          tags,
          summary: 'Book and pay a quoted checkout; repeating it replays the first answer',
          params: checkoutIdParam,
          response: { 200: processResponse, 402: detailBody, 409: detailBody, ...errors },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const result = await processCheckout(ctx, caller, request.params.id);
        countCheckout(result);
        return reply.status(result.statusCode).send(result.body as never);
      },
    );
  };
