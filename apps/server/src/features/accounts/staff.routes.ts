import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, ok } from '@paddock/contract/common';
import { staffInvite, staffList, staffMember, superuserUpdate } from '@paddock/contract/staff';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { inviteStaff, listStaff, setSuperuser } from './staff';

/**
 * The staff list, invitations and superusers (docs/decisions/0038-back-office.md). Granting and
 * revoking permissions is `PUT /api/users/{id}/permissions`.
 */
export const staffRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['staff'];
    const linkDeps = {
      db,
      tokens: deps.tokens,
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
    };

    app.get(
      '/staff',
      {
        schema: {
          tags,
          summary: 'Everyone on the staff and their permissions',
          response: { 200: staffList, ...errors },
        },
      },
      async () => ({ results: await listStaff(db) }),
    );
    app.post(
      '/staff/invite',
      {
        schema: {
          tags,
          summary: 'Put someone on the staff by e-mail and mail them a login link',
          body: staffInvite,
          response: { 201: ok, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ detail: await inviteStaff(linkDeps, requireUser(request), request.body) }),
    );
    app.put(
      '/staff/:id/superuser',
      {
        schema: {
          tags,
          summary: 'Make or unmake a superuser (superusers only; the last one stays)',
          params: idParam,
          body: superuserUpdate,
          response: { 200: staffMember, ...errors },
        },
      },
      async (request) =>
        setSuperuser(db, requireUser(request), request.params.id, request.body.is_superuser),
    );
  };
