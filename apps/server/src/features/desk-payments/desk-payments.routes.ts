import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam } from '@paddock/contract/common';
import { deskPaymentRequest, deskPaymentResponse } from '@paddock/contract/desk-payments';
import type { Deps } from '../../deps';
import { routeErrors as errors } from '../../lib/route-errors';
import { requireUser } from '../../plugins/auth';
import { takeDeskPayment } from './desk-payments.service';

/** Money taken at the desk (docs/decisions/0083-desk-payments.md). */
export const deskPaymentsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const mail = {
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      logError: (error: unknown, message: string) => app.log.error({ err: error }, message),
    };
    app.post(
      '/users/:id/desk_payments',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Record money taken at the desk (cash, card terminal, bank transfer, other) toward the outstanding balance',
          params: idParam,
          body: deskPaymentRequest,
          response: { 200: deskPaymentResponse, ...errors },
        },
      },
      async (request) =>
        takeDeskPayment(
          deps.database.db,
          requireUser(request),
          request.params.id,
          request.body,
          mail,
        ),
    );
  };
