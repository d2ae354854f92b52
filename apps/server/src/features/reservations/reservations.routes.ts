import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, idText, ok, paginated } from '@paddock/contract/common';
import {
  balance,
  captureOutstandingAnswer,
  costBreakdown,
  futureReservationsQuery,
  reservation,
  reservationCreate,
  reservationsQuery,
  reservationUpdate,
  userIdParam,
} from '@paddock/contract/reservations';
import { routeErrors as errors } from '../../lib/route-errors';
import { answerSerializerCompiler } from '../../lib/answer-serializer';
import type { Deps } from '../../deps';
import { hasPermission, requireUser } from '../../plugins/auth';
import { Forbidden, Unauthorized } from '../../plugins/errors';
import { getSettings } from '../../plugins/settings';
import { reservationsFeed } from './feed';
import type { SeatCache } from './seat-cache';
import type { SettingsCache } from '../../plugins/settings-cache';
import { reservationRunCalendar } from './reservation-calendar';
import { feedTokenUser, resetFeedToken, revokeFeedToken } from './feed-token';
import { captureOutstanding, clearOutstanding, getBalance, getCostBreakdown } from './outstanding';
import {
  createReservation,
  deleteReservation,
  getReservation,
  listReservations,
  updateReservation,
} from './reservations.service';
import { cancelReservation, settleCheckoutOf } from '../refunds/refunds.service';
import { refundContext } from '../refunds/refund-context';
import { moveReservation } from '../refunds/move-reservation';
import { bookingsCounter } from '../../plugins/business-metrics';
import { oweBookingConfirmation } from '../checkout/receipts-owed';
import { crashAt } from '../../lib/crash-point';

const feedQuery = z.object({
  token: z.string().max(2000).optional(),
  location: idText.optional(),
});

const feedLink = z.object({ url: z.string() });

/** RFC 5545 text: declared as such in the API document, sent as it is (no JSON serializer). */
const iCalendar = {
  description: 'An iCalendar (RFC 5545) file',
  content: { 'text/calendar': { schema: z.string() } },
};

export const reservationsRoutes =
  (deps: Deps, seatCache: SeatCache, settingsCache: SettingsCache): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const mail = {
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      logError: (error: unknown, message: string) => app.log.error({ err: error }, message),
    };
    const refunds = refundContext(deps, (error, message) => app.log.error({ err: error }, message));
    const tags = ['reservations'];

    // Saving a card charges nothing: the customer is asked "Pay the outstanding $X now?" and
    // the answer calls capture_outstanding (docs/decisions/0096).

    app.get(
      '/reservations',
      {
        schema: {
          tags,
          summary: 'Reservations (customers: their own; staff with change_reservation: all)',
          querystring: reservationsQuery,
          response: { 200: paginated(reservation), ...errors },
        },
      },
      async (request) => listReservations(db, requireUser(request), request.query),
    );
    app.post(
      '/reservations',
      {
        schema: {
          tags,
          summary: 'Book one seat-slot (unpaid) or, as staff, black it out',
          body: reservationCreate,
          response: { 201: reservation, ...errors },
        },
        // The answer written by a compiled writer of the contract's shape (decision 0063).
        serializerCompiler: answerSerializerCompiler,
      },
      async (request, reply) => {
        const heard = () => request.changesHeard();
        const created = await createReservation(
          db,
          requireUser(request),
          request.body,
          new Date(),
          seatCache.lookup(db, heard),
          oweBookingConfirmation,
          settingsCache.lookup(db, heard),
        );
        if (created.subscription !== null) {
          // Paid with club credit: its confirmation is owed, sent after the answer (0102).
          crashAt(deps.config.checkoutCrashAt, 'booked');
          app.receipts.wake();
        }
        bookingsCounter.inc({ via: 'reservation' });
        return reply.status(201).send(created);
      },
    );
    app.get(
      '/reservations/:id',
      {
        schema: { tags, params: idParam, response: { 200: reservation, ...errors } },
      },
      async (request) => getReservation(db, requireUser(request), request.params.id),
    );
    app.get(
      '/reservations/:id/calendar.ics',
      {
        schema: {
          tags,
          summary:
            'The reservation (and the back-to-back slots booked with it) as an iCalendar file',
          params: idParam,
          response: { 200: iCalendar, ...errors },
        },
      },
      async (request, reply) => {
        const { company_name } = await getSettings(db);
        const body = await reservationRunCalendar(db, requireUser(request), request.params.id, {
          name: `${company_name} booking`,
          publicUrl: deps.config.publicUrl,
          organizer: { name: company_name, mailFrom: deps.config.mailFrom },
        });
        return reply
          .type('text/calendar; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="reservation-${request.params.id}.ics"`,
          )
          .send(body);
      },
    );
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: '/reservations/:id',
        schema: {
          tags,
          params: idParam,
          body: reservationUpdate,
          response: { 200: reservation, ...errors },
        },
        // A driver's booking moves by the one move road, as POST …/move does (decision 0112).
        handler: async (request) => {
          const caller = requireUser(request);
          return updateReservation(db, caller, request.params.id, request.body, (id, to) =>
            moveReservation(refunds, caller, id, to),
          );
        },
      });
    }
    app.delete(
      '/reservations/:id',
      {
        schema: { tags, params: idParam, response: { 204: z.undefined(), ...errors } },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const row = await getReservation(db, caller, request.params.id);
        // A customer's cancel refunds per the policy; staff keep the plain delete (no refund), and
        // choose a refund with POST /reservations/{id}/cancel (docs/decisions/0027).
        if (row.is_blackout || hasPermission(caller, 'reservations.change_reservation')) {
          // Its checkout, if a crash left it claimed, ends first: the charge it kept is recorded.
          await settleCheckoutOf(refunds, caller, request.params.id);
          await deleteReservation(db, caller, request.params.id);
        } else
          await cancelReservation(refunds, caller, request.params.id, {
            refund: 'policy',
            reason: '',
          });
        return reply.status(204).send();
      },
    );
    app.get(
      '/users/me/reservations/future',
      {
        schema: {
          tags,
          summary: "The caller's reservations that are not over yet, soonest first",
          querystring: futureReservationsQuery,
          response: { 200: paginated(reservation), ...errors },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        return listReservations(db, caller, {
          ...request.query,
          user: caller.id,
          future: request.query.future ?? true,
          ordering: 'slot',
        });
      },
    );

    app.get(
      '/users/:id/balance',
      {
        schema: {
          tags,
          summary: 'Outstanding (unpaid) reservations of a user',
          params: userIdParam,
          response: { 200: balance, ...errors },
        },
      },
      async (request) => getBalance(db, requireUser(request), request.params.id),
    );
    app.get(
      '/users/:id/cost_breakdown',
      {
        schema: {
          tags,
          summary: 'What the card would be charged for the outstanding balance, item by item',
          params: userIdParam,
          response: { 200: costBreakdown, ...errors },
        },
      },
      async (request) => getCostBreakdown(db, requireUser(request), request.params.id),
    );
    app.post(
      '/users/:id/clear_outstanding',
      {
        schema: {
          tags,
          summary: 'Mark every outstanding item paid (staff)',
          params: idParam,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => clearOutstanding(db, requireUser(request), request.params.id),
    );
    app.post(
      '/users/me/charges/capture_outstanding',
      {
        schema: {
          tags,
          summary: 'Charge the saved card for the outstanding balance',
          response: { 200: captureOutstandingAnswer, 402: detailBody, ...errors },
        },
      },
      async (request) =>
        captureOutstanding({ db, payments: deps.payments, mail }, requireUser(request).id),
    );

    app.post(
      '/feed_token',
      {
        schema: {
          tags,
          summary: 'A new link for the planner feed; the previous link stops working',
          response: { 200: feedLink, ...errors },
        },
      },
      async (request) => {
        const token = await resetFeedToken(db, requireUser(request).id);
        return { url: `${deps.config.publicUrl}/api/feed.ics?token=${token}` };
      },
    );
    app.delete(
      '/feed_token',
      {
        schema: {
          tags,
          summary: 'Turn the planner feed link off',
          response: { 204: z.undefined() },
        },
      },
      async (request, reply) => {
        await revokeFeedToken(db, requireUser(request).id);
        return reply.status(204).send();
      },
    );

    // Calendar apps cannot send headers, so the feed takes its own feed token in the query
    // (never a session token: see feed-token.ts).
    app.get(
      '/feed.ics',
      {
        schema: {
          tags,
          summary:
            'Read-only iCalendar feed of the planner (staff; session header or ?token= feed token)',
          querystring: feedQuery,
          // A session header, or the feed token calendar apps keep in the address.
          security: [{ bearer: [] }, { feedToken: [] }],
          'x-permission': 'reservations.change_reservation',
          response: { 200: iCalendar, ...errors },
        },
      },
      async (request, reply) => {
        let user = request.authUser;
        if (!user && request.query.token) user = await feedTokenUser(db, request.query.token);
        if (!user) throw new Unauthorized();
        if (!hasPermission(user, 'reservations.change_reservation')) throw new Forbidden();
        const { company_name } = await getSettings(db);
        const body = await reservationsFeed(db, {
          locationId: request.query.location,
          companyName: company_name,
          publicUrl: deps.config.publicUrl,
          organizer: { name: company_name, mailFrom: deps.config.mailFrom },
        });
        return reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', 'inline; filename="reservations.ics"')
          .send(body);
      },
    );
  };
