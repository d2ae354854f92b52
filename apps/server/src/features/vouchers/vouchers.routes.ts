import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, idParam, validationErrorBody } from '@paddock/contract/common';
import {
  voucherPurchase,
  voucherPurchaseCompleteResponse,
  voucherPurchaseResponse,
  voucherBalance as voucherBalanceBody,
  voucherCodeParam,
} from '@paddock/contract/vouchers';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { completeVoucherPurchase, purchaseVoucher, type PurchaseContext } from './voucher-purchase';
import { voucherBalance } from './vouchers.service';

export const vouchersRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['vouchers'];
    const purchaseContext = (request: FastifyRequest): PurchaseContext => ({
      db,
      payments: deps.payments,
      mailer: deps.mailer,
      publicUrl: deps.config.publicUrl,
      logError: (error, message) => request.log.error({ err: error }, message),
      crashAt: deps.config.checkoutCrashAt,
    });

    app.post(
      '/users/me/vouchers/purchase',
      {
        // The login check runs before the body is read: anonymous callers get a 401.
        schema: {
          tags,
          summary:
            'Buy a gift voucher with the saved card; its code is e-mailed (or the 3-D Secure challenge)',
          body: voucherPurchase,
          response: { 200: voucherPurchaseResponse, 400: validationErrorBody, 401: detailBody },
        },
      },
      async (request) =>
        purchaseVoucher(purchaseContext(request), requireUser(request).id, request.body),
    );
    app.post(
      '/users/me/vouchers/purchases/:id/complete',
      {
        schema: {
          tags,
          summary: "Finish one's own purchase after its 3-D Secure challenge (decision 0095)",
          params: idParam,
          response: {
            200: voucherPurchaseCompleteResponse,
            400: validationErrorBody,
            401: detailBody,
            404: detailBody,
          },
        },
      },
      async (request) =>
        completeVoucherPurchase(
          purchaseContext(request),
          request.params.id,
          requireUser(request).id,
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
