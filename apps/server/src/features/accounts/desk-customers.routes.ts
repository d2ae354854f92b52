import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deskCustomerRequest, deskCustomerResponse } from '@paddock/contract/desk-customers';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { createDeskCustomer } from './desk-customers';

/** Walk-ins: staff at the desk create a customer's account (decision 0082). */
export const deskCustomerRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const linkDeps = {
      db: deps.database.db,
      tokens: deps.tokens,
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
    };
    app.post(
      '/users/desk',
      {
        schema: {
          tags: ['accounts'],
          summary:
            'Create a walk-in customer at the desk: a name and an e-mail or phone; optionally mail a set-password link',
          body: deskCustomerRequest,
          response: { 201: deskCustomerResponse, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createDeskCustomer(linkDeps, requireUser(request), request.body)),
    );
  };
