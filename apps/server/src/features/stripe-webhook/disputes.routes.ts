import { z } from 'zod';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam } from '@paddock/contract/common';
import { dispute } from '@paddock/contract/disputes';
import type { Deps } from '../../deps';
import { paymentDisputes } from '../../db/schema/payments';
import { routeErrors as errors } from '../../lib/route-errors';
import { bookingsOf } from './disputes';

/** The dispute flag on a customer, for their admin page (decision 0084). */
export const disputesRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    app.get(
      '/users/:id/disputes',
      {
        schema: {
          tags: ['payments'],
          summary: "The customer's payment disputes (chargebacks), newest first",
          params: idParam,
          response: { 200: z.array(dispute), ...errors },
        },
      },
      async (request) => {
        const rows = await db
          .select()
          .from(paymentDisputes)
          .where(eq(paymentDisputes.userId, request.params.id))
          .orderBy(desc(paymentDisputes.openedAt), desc(paymentDisputes.id))
          .limit(100);
        return Promise.all(
          rows.map(async (row) => ({
            id: row.id,
            dispute_ref: row.disputeRef,
            charge: row.chargeId,
            amount_cents: row.amountCents,
            currency: row.currency,
            reason: row.reason,
            status: row.status,
            open: row.closedAt === null,
            reservations: await bookingsOf(db, row.chargeId),
            opened: row.openedAt.toISOString(),
            closed: row.closedAt?.toISOString() ?? null,
          })),
        );
      },
    );
  };
