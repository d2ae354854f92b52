import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { detailBody, idParam } from '@paddock/contract/common';
import {
  rigSession,
  ownSessionExtend,
  rigSessionExtend,
  rigSessionExtended,
  rigSessionReport,
  rigSessionStart,
} from '@paddock/contract/rig-session';

import type { Deps } from '../../deps';
import { routeErrors as errors } from '../../lib/route-errors';
import type { SettingsCache } from '../../plugins/settings-cache';
import { checkoutContextOf } from '../checkout/checkout-context';
import type { ReceiptSender } from '../checkout/receipts-owed';
import { rigFromHeader } from '../laps/laps.service';
import { requireUser } from '../../plugins/auth';
import { extendOwnSession, extendRigSession } from './extend-session';
import { reportRigSession } from './report-session';
import { rigSessionView, startRigSession, type Rig } from './rig-session.service';

/**
 * The rig session (issue 42, decision 0120), all with the rig's key (`Authorization: Rig
 * <key>`), checked before the body is read: a key reads and acts on its own seat only.
 */
export const rigSessionRoutes =
  (deps: Deps, receipts: ReceiptSender, settingsCache: SettingsCache): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const ctx = checkoutContextOf(deps, receipts, (error, message) =>
      app.log.error({ err: error }, message),
    );
    const tags = ['rig session'];
    const rigs = new WeakMap<object, Rig>();
    const rigOf = (request: FastifyRequest) => rigs.get(request)!;
    const onRequest = async (request: FastifyRequest) => {
      rigs.set(request, await rigFromHeader(db, request.headers.authorization));
    };
    const settings = (request: FastifyRequest) =>
      settingsCache.lookup(db, () => request.changesHeard())();

    app.get(
      '/rig_session',
      {
        onRequest,
        schema: {
          tags,
          summary: "The rig's seat: its session now and next, the start mode and the warnings",
          response: { 200: rigSession, ...errors },
        },
      },
      async (request) => rigSessionView(db, rigOf(request), await settings(request)),
    );
    app.post(
      '/rig_session/start',
      {
        onRequest,
        schema: {
          tags,
          summary: 'The session started on the rig: its booking is checked in',
          body: rigSessionStart,
          response: { 200: detailBody, ...errors },
        },
      },
      async (request) => startRigSession(db, rigOf(request), request.body.reservation),
    );
    app.post(
      '/rig_session/extend',
      {
        onRequest,
        schema: {
          tags,
          summary:
            'The booked customer extends their running session by the next half-hour (booked and paid as any booking)',
          body: rigSessionExtend,
          response: { 200: rigSessionExtended, ...errors },
        },
      },
      async (request) => {
        const result = await extendRigSession(ctx, rigOf(request), request.body);
        receipts.wake();
        return result;
      },
    );
    app.post(
      '/rig_session/report',
      {
        onRequest,
        schema: {
          tags,
          summary: 'What the rig did with a session while it could not reach Paddock',
          body: rigSessionReport,
          response: { 200: detailBody, ...errors },
        },
      },
      async (request) => reportRigSession(db, rigOf(request), request.body),
    );
    app.post(
      '/reservations/:id/extend',
      {
        schema: {
          tags,
          summary:
            'The customer extends the running session of their own booking by the next half-hour (as on the rig screen)',
          params: idParam,
          body: ownSessionExtend,
          response: { 200: rigSessionExtended, ...errors },
        },
      },
      async (request) => {
        const result = await extendOwnSession(
          ctx,
          requireUser(request),
          request.params.id,
          request.body,
        );
        receipts.wake();
        return result;
      },
    );
  };
