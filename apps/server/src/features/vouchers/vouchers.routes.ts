import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, validationErrorBody } from '@paddock/contract/common';
import {
  voucher,
  voucherPurchase,
  voucherBalance as voucherBalanceBody,
  voucherCodeParam,
} from '@paddock/contract/vouchers';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { purchaseVoucher } from './voucher-purchase';
import { voucherBalance } from './vouchers.service';

export const vouchersRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['vouchers'];

    app.post(
      '/users/me/vouchers/purchase',
      {
        // The login check runs before the body is read: anonymous callers get a 401.
        schema: {
          tags,
          summary: 'Buy a gift voucher with the saved card; its code is e-mailed',
          body: voucherPurchase,
          response: { 200: voucher, 400: validationErrorBody, 401: detailBody },
        },
      },
      async (request) =>
        purchaseVoucher(
          {
            db,
            payments: deps.payments,
            mailer: deps.mailer,
            publicUrl: deps.config.publicUrl,
            logError: (error, message) => request.log.error({ err: error }, message),
          },
          requireUser(request).id,
          request.body,
        ),
    );
    app.get(
      '/vouchers/:code/balance',
      {
        // Codes are unguessable; the limit keeps anyone from trying many.
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Balance of a voucher code (any case, dashes ignored)',
          params: voucherCodeParam,
          response: { 200: voucherBalanceBody, 404: detailBody },
        },
      },
      async (request) => voucherBalance(db, request.params.code),
    );
  };
