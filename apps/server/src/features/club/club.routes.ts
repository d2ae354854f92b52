import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clubUserParam,
  creditsEnroll,
  creditsEnrollAnswer,
  creditsQuote,
  creditsQuoteQuery,
  creditsUnenrollAnswer,
  subscription,
  subscriptionsQuery,
} from '@paddock/contract/club';
import { idParam, paginated } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import {
  clubUserId,
  completeEnrolment,
  creditsPurchaseQuote,
  enroll,
  listSubscriptions,
  unenroll,
} from './club.service';

/**
 * The club's actions (DESIGN §3): `/users/me/charges/credits_*` and `/users/me/subscriptions`.
 * `me` may also be a user id for staff with user.change_user (the admin "Add subscription" and
 * cancelling on a customer's behalf). The login guard runs on request, before the body is
 * validated, so an anonymous call is a 401 whatever it sends.
 */
export const clubRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const ctx = {
      db,
      payments: deps.payments,
      publicUrl: deps.config.publicUrl,
      mail: {
        mailer: deps.mailer,
        publicUrl: deps.config.publicUrl,
        logError: (error: unknown, message: string) => app.log.error({ err: error }, message),
      },
      crashAt: deps.config.checkoutCrashAt,
    };
    const tags = ['club'];

    app.get(
      '/users/:id/charges/credits_purchase_quote',
      {
        schema: {
          tags,
          summary: 'Price of a monthly plan of `credits` (credits × 10 cents less the discount)',
          params: clubUserParam,
          querystring: creditsQuoteQuery,
          response: { 200: creditsQuote, ...errors },
        },
      },
      async (request) => {
        await clubUserId(db, requireUser(request), request.params.id);
        return creditsPurchaseQuote(db, request.query.credits);
      },
    );
    app.post(
      '/users/:id/charges/credits_enroll',
      {
        schema: {
          tags,
          summary:
            'Join the club: charges the first month to the saved card, adds the credits (or the 3-D Secure challenge)',
          params: clubUserParam,
          body: creditsEnroll,
          response: { 200: creditsEnrollAnswer, ...errors },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const userId = await clubUserId(db, caller, request.params.id);
        // Staff enrolling a customer are not the cardholder: no challenge for them to run.
        return enroll(ctx, userId, request.body.credits_amount, new Date(), userId === caller.id);
      },
    );
    app.post(
      '/users/me/subscriptions/:id/complete',
      {
        schema: {
          tags,
          summary: "Finish one's own enrolment after its 3-D Secure challenge (decision 0095)",
          params: idParam,
          response: { 200: creditsEnrollAnswer, ...errors },
        },
      },
      async (request) => completeEnrolment(ctx, requireUser(request).id, request.params.id),
    );
    app.post(
      '/users/:id/charges/credits_unenroll',
      {
        schema: {
          tags,
          summary:
            'Cancel the membership (within two billing cycles the discounts are charged back, or the 3-D Secure challenge)',
          params: clubUserParam,
          response: { 200: creditsUnenrollAnswer, ...errors },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const userId = await clubUserId(db, caller, request.params.id);
        // Staff cancelling for a customer are not the cardholder: no challenge for them to run.
        return unenroll(ctx, userId, new Date(), userId === caller.id);
      },
    );
    app.get(
      '/users/:id/subscriptions',
      {
        schema: {
          tags,
          summary: "The user's club subscriptions with the sessions their credits book",
          params: clubUserParam,
          querystring: subscriptionsQuery,
          response: { 200: paginated(subscription), ...errors },
        },
      },
      async (request) => {
        const userId = await clubUserId(db, requireUser(request), request.params.id);
        return listSubscriptions(db, userId, request.query);
      },
    );
  };
