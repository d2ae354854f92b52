import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, paginated } from '@paddock/contract/common';
import {
  voucherAdmin,
  voucherAdminDetail,
  voucherCreate,
  voucherListQuery,
  voucherVoid,
} from '@paddock/contract/vouchers';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireStaff } from '../../plugins/auth';
import * as admin from './vouchers-admin.service';

/** The back office's vouchers (decision 0042). */
export const vouchersAdminRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['vouchers'];

    app.get(
      '/vouchers',
      {
        schema: {
          tags,
          summary: 'Vouchers, newest first: search code, purchaser or recipient; filter by status',
          querystring: voucherListQuery,
          response: { 200: paginated(voucherAdmin), ...errors },
        },
      },
      async (request) => admin.listVouchers(db, request.query),
    );
    app.post(
      '/vouchers',
      {
        schema: {
          tags,
          summary: "Issue a voucher without a charge, in the venue's default currency (staff)",
          body: voucherCreate,
          response: { 201: voucherAdminDetail, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await admin.issueVoucher(db, requireStaff(request), request.body)),
    );
    app.get(
      '/vouchers/:id',
      {
        schema: {
          tags,
          summary: 'A voucher and its redemptions',
          params: idParam,
          response: { 200: voucherAdminDetail, ...errors },
        },
      },
      async (request) => admin.getVoucher(db, request.params.id),
    );
    app.post(
      '/vouchers/:id/void',
      {
        schema: {
          tags,
          summary: 'Void a voucher for good (the reason is kept and audited)',
          params: idParam,
          body: voucherVoid,
          response: { 200: voucherAdminDetail, ...errors },
        },
      },
      async (request) =>
        admin.voidVoucher(db, requireStaff(request), request.params.id, request.body.reason),
    );
  };
