import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  forgotPasswordRequest,
  loginLinkRequest,
  permissionsResponse,
  permissionsUpdate,
  signupRequest,
  tokenRequest,
  tokenResponse,
  updatePasswordRequest,
  user,
  userIdParam,
  userListQuery,
  userUpdate,
} from '@paddock/contract/accounts';
import { detailBody, ok, paginated } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { AbuseLimits } from '../../plugins/abuse-limits';
import { Unauthorized } from '../../plugins/errors';
import * as accounts from './accounts.service';
import {
  endAllSessions,
  endSession,
  renewCallerSession,
  renewedSessionHeaderDoc,
} from './sessions';
import { setPermissions } from './staff-permissions';
import { deleteAccount } from '../my-data/delete-account';

const MINUTE = 60;
const QUARTER_HOUR = 15 * 60;
const HOUR = 60 * 60;

const bodyField = (request: FastifyRequest, field: string) =>
  String((request.body as Record<string, unknown>)[field] ?? '').toLowerCase();

export const accountsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx: accounts.AccountsContext = {
      db: deps.database.db,
      tokens: deps.tokens,
      mailer: deps.mailer,
      payments: deps.payments,
      publicUrl: deps.config.publicUrl,
      logError: (err, message) => app.log.error({ err }, message),
    };
    const perMinute = deps.config.authRateLimitPerMinute;
    // Kept in PostgreSQL: every instance counts against the same limits.
    const limits = new AbuseLimits(ctx.db);
    /** What a change of one's own password or e-mail is checked with (decision 0113). */
    const proof = (request: FastifyRequest): accounts.SelfChangeProof => ({
      passwordResetUntil: request.authSession?.passwordResetUntil,
      limits,
    });
    /** The caller who changed their own password keeps a session: a fresh token in a header. */
    const renewer =
      (request: FastifyRequest, reply: FastifyReply): accounts.SessionsEnded =>
      (userId, version) =>
        renewCallerSession(ctx, reply, requireUser(request).id, userId, version);

    app.post(
      '/auth/token',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Log in with username or e-mail',
          body: tokenRequest,
          response: { 200: tokenResponse, ...errors, 429: detailBody },
        },
      },
      async (request) => {
        const name = bodyField(request, 'username');
        await limits.enforce(
          { key: `login:ip-acct:${request.ip}|${name}`, max: perMinute, seconds: MINUTE },
          { key: `login:ip:${request.ip}`, max: perMinute * 10, seconds: MINUTE },
        );
        // Failures per account, from any address: past them a spread-out guessing attack gets
        // one answer for every password, and the owner a login link by mail (decision 0073).
        const account = { key: `login:acct:${name}`, max: perMinute * 2, seconds: QUARTER_HOUR };
        if ((await limits.exceeded(account)).exceeded)
          return accounts.loginToProtectedAccount(ctx, limits, request.body);
        try {
          return await accounts.login(ctx, request.body);
        } catch (error) {
          if (error instanceof Unauthorized) await limits.hit(account);
          throw error;
        }
      },
    );

    app.post(
      '/auth/login_link',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Exchange a one-time login link for a session token',
          body: loginLinkRequest,
          response: { 200: tokenResponse, ...errors, 429: detailBody },
        },
      },
      async (request) => {
        await limits.enforce({
          key: `login-link:ip:${request.ip}`,
          max: perMinute * 3,
          seconds: MINUTE,
        });
        return accounts.exchangeLoginLink(ctx, request.body.token);
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags: ['accounts'],
          summary: 'End this session',
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await endSession(ctx.db, request.authSession!);
        return { detail: 'Logged out.' };
      },
    );

    app.post(
      '/auth/logout_all',
      {
        schema: {
          tags: ['accounts'],
          summary: 'End every session of the signed-in user, on every device',
          response: { 200: ok, ...errors },
        },
      },
      async (request) => {
        await endAllSessions(ctx.db, requireUser(request).id);
        return { detail: 'Logged out everywhere.' };
      },
    );

    app.get(
      '/auth/permissions',
      {
        schema: {
          tags: ['accounts'],
          summary: "The caller's staff flags and permission strings",
          response: { 200: permissionsResponse, ...errors },
        },
      },
      async (request) => accounts.permissionsOf(requireUser(request)),
    );

    app.post(
      '/users',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign up (step 0); an existing e-mail is mailed a login link',
          body: signupRequest,
          response: { 201: tokenResponse, ...errors, 429: detailBody },
        },
      },
      async (request, reply) => {
        await limits.enforce(
          { key: `signup:ip:${request.ip}`, max: perMinute, seconds: MINUTE },
          { key: `signup:ip-hour:${request.ip}`, max: perMinute * 5, seconds: HOUR },
        );
        return reply.status(201).send(await accounts.signup(ctx, request.body, limits));
      },
    );

    app.get(
      '/users',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Search users (staff)',
          querystring: userListQuery,
          response: { 200: paginated(user), ...errors },
        },
      },
      async (request) => accounts.listUsers(ctx, requireUser(request), request.query),
    );

    app.post(
      '/users/forgot_password',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail a login link to reset the password',
          body: forgotPasswordRequest,
          response: { 200: ok, ...errors, 429: detailBody },
        },
      },
      async (request) => {
        // Per address only: a limit per e-mail would let anyone, from many addresses, refuse the
        // owner their reset. What one inbox receives is bounded by the link mails' own window
        // (one per account per 5 minutes), and a link sent in it stays good (decision 0113).
        await limits.enforce({
          key: `forgot:ip:${request.ip}`,
          max: perMinute * 3,
          seconds: MINUTE,
        });
        return { detail: await accounts.forgotPassword(ctx, limits, request.body.email) };
      },
    );

    app.get(
      '/users/:id',
      {
        schema: {
          tags: ['accounts'],
          params: userIdParam,
          response: { 200: user, ...errors },
        },
      },
      async (request) => accounts.getUser(ctx, requireUser(request), request.params.id),
    );

    for (const method of ['patch', 'put'] as const) {
      app[method](
        '/users/:id',
        {
          schema: {
            tags: ['accounts'],
            params: userIdParam,
            body: userUpdate,
            response: { 200: user, ...errors, 429: detailBody },
            documentHeaders: renewedSessionHeaderDoc,
          },
        },
        async (request, reply) =>
          accounts.updateUser(
            ctx,
            requireUser(request),
            request.params.id,
            request.body,
            proof(request),
            renewer(request, reply),
          ),
      );
    }

    app.delete(
      '/users/:id',
      {
        schema: {
          tags: ['accounts'],
          params: userIdParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        // The one deletion (decision 0124): bookings cancelled under the policy, then anonymised.
        await deleteAccount(ctx, requireUser(request), request.params.id, { by: 'staff' });
        return reply.status(204).send();
      },
    );

    app.post(
      '/users/:id/update_password',
      {
        schema: {
          tags: ['accounts'],
          params: userIdParam,
          body: updatePasswordRequest,
          response: { 200: ok, ...errors, 429: detailBody },
          documentHeaders: renewedSessionHeaderDoc,
        },
      },
      async (request, reply) => ({
        detail: await accounts.updatePassword(
          ctx,
          requireUser(request),
          request.params.id,
          request.body,
          proof(request),
          renewer(request, reply),
        ),
      }),
    );

    app.put(
      '/users/:id/permissions',
      {
        schema: {
          tags: ['accounts'],
          summary: "Set an account's staff flag and permission strings (user.change_staff)",
          params: userIdParam,
          body: permissionsUpdate,
          response: { 200: permissionsResponse, ...errors },
        },
      },
      async (request) => {
        const id = request.params.id === 'me' ? requireUser(request).id : request.params.id;
        return setPermissions(ctx.db, requireUser(request), id, request.body);
      },
    );

    app.post(
      '/users/:id/send_login_link',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail the user a login link (staff)',
          params: userIdParam,
          response: { 200: ok, ...errors },
        },
      },
      async (request) => ({
        detail: await accounts.sendLoginLink(ctx, requireUser(request), request.params.id),
      }),
    );
  };
