import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticateChargeResponse, charge, chargesQuery } from '@paddock/contract/charges';
import { detailBody, idParam } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import { authenticateCharge } from './authenticate-charge';
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
          // `?user=` (staff): someone else's list needs the permission, an unknown user is a 404.
          response: { 200: paginated(charge), 403: detailBody, 404: detailBody },
        },
      },
      async (request) => listCharges(deps.database.db, requireUser(request), request.query),
    );

    app.post(
      '/users/me/charges/:id/authenticate',
      {
        schema: {
          tags: ['charges'],
          summary:
            'Complete a charge made without the customer that their bank wants authenticated (3-D Secure): the challenge, then paid',
          params: idParam,
          response: { 200: authenticateChargeResponse, 402: detailBody, ...errors },
        },
      },
      async (request) =>
        authenticateCharge(
          deps.database.db,
          deps.payments,
          requireUser(request).id,
          request.params.id,
          // The challenge comes back to the page that asks again (the web's).
          `${deps.config.publicUrl}/charges/${request.params.id}/authenticate`,
        ),
    );
  };
