import { asc } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { localTokenRequest, localTokenResponse } from '@paddock/contract/cards';
import { formatMoney } from '@paddock/contract/money';
import type { Deps } from '../../deps';
import { locations } from '../../db/schema/venue';
import { NotFound } from '../errors';
import { getSettings } from '../settings';
import { LocalPaymentProvider, type LocalReceipt } from './local-provider';
import escapeHtml from 'escape-html';

const DEFAULT_TIMEZONE = 'America/Los_Angeles';

/**
 * The endpoints Stripe would serve for the local provider: tokenization for the built-in card
 * form, and receipts. They answer 404 when Stripe is configured.
 */
export const localPaymentRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const local = () => {
      if (!(deps.payments instanceof LocalPaymentProvider)) throw new NotFound();
      return deps.payments;
    };

    app.post(
      '/payments/local/tokens',
      {
        // Like Stripe's publishable-key call: no login needed, so it is throttled per address.
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        schema: {
          tags: ['payments'],
          summary: 'Tokenize a card for the local payment provider (Stripe-shaped)',
          body: localTokenRequest,
          response: { 200: localTokenResponse },
        },
      },
      async (request) => local().createToken(request.body),
    );

    app.get(
      '/payments/local/receipts/:chargeId',
      {
        schema: {
          tags: ['payments'],
          summary: 'Printable receipt of a local charge',
          params: z.object({ chargeId: z.string().max(64) }),
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        const receipt = await local().receipt(request.params.chargeId);
        if (!receipt) throw new NotFound();
        const db = deps.database.db;
        const [{ company_name }, [location]] = await Promise.all([
          getSettings(db),
          db
            .select({ timezone: locations.timezone })
            .from(locations)
            .orderBy(asc(locations.id))
            .limit(1),
        ]);
        return reply
          .type('text/html; charset=utf-8')
          .send(receiptHtml(receipt, company_name, location?.timezone ?? DEFAULT_TIMEZONE));
      },
    );
  };

function receiptHtml(receipt: LocalReceipt, companyName: string, timezone: string): string {
  const company = escapeHtml(companyName);
  const paidAt = DateTime.fromJSDate(receipt.createdAt)
    .setZone(timezone)
    .toFormat("LLLL d, yyyy 'at' h:mm a ZZZZ");
  const rows: [string, string][] = [
    ['Amount paid', formatMoney(receipt.amountCents, receipt.currency)],
    ['Date paid', paidAt],
    ['Payment method', `${receipt.brand} ending in ${receipt.last4}`],
    ['Description', receipt.description],
    ['Receipt number', receipt.id],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt from ${company}</title>
<style>
  body { font-family: system-ui, sans-serif; color: #222; margin: 2rem auto; max-width: 32rem; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1.5rem; margin: 1.5rem 0; }
  dt { color: #555; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  .note { color: #555; font-size: 0.875rem; }
  @media print { .note { display: none; } body { margin: 0; } }
</style>
</head>
<body>
<main>
<h1>${company}</h1>
<p>Receipt</p>
<dl>
${rows.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}
</dl>
<p class="note">Use your browser's Print command to print or save this receipt.</p>
</main>
</body>
</html>
`;
}
