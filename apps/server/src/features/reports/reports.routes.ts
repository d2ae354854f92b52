import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { report, reportQuery } from '@paddock/contract/reports';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { buildReport } from './reports.service';

/** The owner's reports (reports.view_report): one period at one location. */
export const reportsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/reports',
      {
        schema: {
          tags: ['reports'],
          summary:
            'Utilisation, revenue, club members, no-shows and top customers of a location over a period',
          querystring: reportQuery,
          response: { 200: report, ...errors },
        },
      },
      async (request) => buildReport(deps.database.db, request.query),
    );
  };
