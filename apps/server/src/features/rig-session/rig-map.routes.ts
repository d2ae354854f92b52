import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rigMap, rigMapQuery, rigMove, rigMoveResult } from '@paddock/contract/rig-map';
import type { Deps } from '../../deps';
import { routeErrors as errors } from '../../lib/route-errors';
import { refundContext } from '../refunds/refund-context';
import { rigMap as readRigMap } from './rig-map';
import { moveSession } from './rig-move';

/**
 * The staff rig map (issue 42, decision 0127; reservations.change_reservation, the route access
 * table): the location's seats as tiles, and Move for the rest of a session. Start and End are
 * the launcher's own signal route; open the customer is the admin user page.
 */
export const rigMapRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['rig-map'];
    const refunds = refundContext(deps, (error, message) => app.log.error({ err: error }, message));
    app.get(
      '/rig_map',
      {
        schema: {
          tags,
          summary:
            'Every seat of a location (else the caller’s own): its rig, its session, its next',
          querystring: rigMapQuery,
          response: { 200: rigMap, ...errors },
        },
      },
      async (request) => readRigMap(db, request.authUser!, request.query.location),
    );
    app.post(
      '/rig_map/move',
      {
        schema: {
          tags,
          summary:
            'Move the customer in session on a seat to another seat for the rest of their time',
          body: rigMove,
          response: { 200: rigMoveResult, ...errors },
        },
      },
      async (request) => moveSession(refunds, request.authUser!, request.body),
    );
  };
