import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { charge, chargesQuery } from '@paddock/contract/charges';
import { detailBody, paginated } from '@paddock/contract/common';
import type { Deps } from '../../app';
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
          // `?user=` (staff): someone else's list needs the permission, an unknown user is a 404.
          response: { 200: paginated(charge), 403: detailBody, 404: detailBody },
        },
      },
      async (request) => listCharges(deps.database.db, requireUser(request), request.query),
    );
  };
