import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { charge, chargesQuery } from '@paddock/contract/charges';
import { paginated } from '@paddock/contract/common';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { listCharges } from './charges.service';

export const chargesRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/users/me/charges',
      {
        schema: {
          tags: ['charges'],
          summary: 'Charges to the saved card, newest first (the recent-transactions list)',
          querystring: chargesQuery,
          response: { 200: paginated(charge) },
        },
      },
      async (request) => listCharges(deps.database.db, requireUser(request), request.query),
    );
  };
