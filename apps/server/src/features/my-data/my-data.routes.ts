import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userIdParam } from '@paddock/contract/accounts';
import { detailBody, ok } from '@paddock/contract/common';
import {
  ACCOUNT_DELETED_MESSAGE,
  deleteAccountRequest,
  deletionPreview,
  myDataExport,
} from '@paddock/contract/my-data';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { AbuseLimits } from '../../plugins/abuse-limits';
import { refundContext } from '../refunds/refund-context';
import { recordAudit } from '../audit/audit.service';
import { deleteAccount, ownAccount, previewDeletion } from './delete-account';
import { exportMyData } from './my-data-export';

/** A customer's data in their hands: download it, delete the account (decision 0124). */
export const myDataRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const ctx = refundContext(deps, (error, message) => app.log.error({ err: error }, message));
    const limits = new AbuseLimits(ctx.db);
    const tags = ['accounts'];

    app.get(
      '/users/:id/my_data',
      {
        schema: {
          tags,
          summary:
            'Download everything kept about the person, with a summary in words (own, or staff with user.change_user, audited)',
          params: userIdParam,
          response: { 200: myDataExport, ...errors },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const row = await ownAccount(ctx.db, caller, request.params.id);
        const data = await exportMyData(ctx.db, row);
        if (row.id !== caller.id)
          await recordAudit(ctx.db, caller, {
            action: 'user.export_data',
            targetType: 'user',
            targetId: row.id,
            subjectUserId: row.id,
          });
        const day = data.generated_at.slice(0, 10);
        void reply.header(
          'content-disposition',
          `attachment; filename="my-data-${row.id}-${day}.json"`,
        );
        return data;
      },
    );

    app.get(
      '/users/:id/deletion_preview',
      {
        schema: {
          tags,
          summary:
            'What deleting the account would do: the future bookings cancelled and what comes back, the club, vouchers, laps',
          params: userIdParam,
          response: { 200: deletionPreview, ...errors },
        },
      },
      async (request) => previewDeletion(ctx, requireUser(request), request.params.id),
    );

    app.post(
      '/users/:id/delete_account',
      {
        schema: {
          tags,
          summary:
            "Delete one's own account, confirmed by the current password: future bookings cancelled under the policy, personal fields anonymised, money records kept (staff: DELETE /users/{id})",
          params: userIdParam,
          body: deleteAccountRequest,
          response: { 200: ok, ...errors, 429: detailBody },
        },
      },
      async (request) => {
        const confirm = {
          by: 'own' as const,
          currentPassword: request.body.current_password,
          limits,
        };
        await deleteAccount(ctx, requireUser(request), request.params.id, confirm);
        return { detail: ACCOUNT_DELETED_MESSAGE };
      },
    );
  };
