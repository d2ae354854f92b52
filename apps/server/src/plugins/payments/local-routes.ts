import { asc } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { localTokenRequest, localTokenResponse } from '@paddock/contract/cards';
import { formatMoney } from '@paddock/contract/money';
import type { Deps } from '../../deps';
import { locations } from '../../db/schema/venue';
import { NotFound, ValidationError } from '../errors';
import { getSettings } from '../settings';
import { LocalPaymentProvider, type LocalChallenge, type LocalReceipt } from './local-provider';
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

    // The bank's 3-D Secure page, as Stripe's test mode shows it: no login (the unguessable
    // intent id is the key, as with Stripe's hosted pages); the answer goes back to the web.
    const intentParam = z.object({ intentRef: z.string().max(64) });
    app.get(
      '/payments/local/challenges/:intentRef',
      {
        schema: {
          tags: ['payments'],
          summary: "The local provider's 3-D Secure challenge page",
          params: intentParam,
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        const challenge = await local().challenge(request.params.intentRef);
        if (!challenge) throw new NotFound();
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(challengeHtml(request.params.intentRef, challenge));
      },
    );
    app.post(
      '/payments/local/challenges/:intentRef',
      {
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: {
          tags: ['payments'],
          summary: 'Answer the challenge (the page posts outcome=complete or outcome=fail)',
          params: intentParam,
          // The page's form posts text/plain (`outcome=complete`), which Fastify parses as is.
          body: z.string().max(100),
        },
      },
      async (request, reply) => {
        const outcome = /^outcome=(complete|fail)\s*$/.exec(request.body)?.[1];
        if (!outcome) throw ValidationError.field('outcome', 'Choose complete or fail.');
        const back = await local().answerChallenge(
          request.params.intentRef,
          outcome === 'complete',
        );
        if (!back) throw new NotFound();
        return reply.redirect(back, 303);
      },
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

function challengeHtml(intentRef: string, c: LocalChallenge): string {
  const what =
    c.amountCents !== null && c.currency
      ? `Pay ${formatMoney(c.amountCents, c.currency)} to ${c.description}`
      : c.description;
  const open = c.status === 'requires_action';
  const action = `/api/payments/local/challenges/${encodeURIComponent(intentRef)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure authentication</title>
<style>
  body { font-family: system-ui, sans-serif; color: #222; margin: 2rem auto; max-width: 28rem; padding: 0 1rem; }
  h1 { font-size: 1.5rem; }
  form { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.75rem 1.25rem; border-radius: 0.375rem; border: 1px solid #1d4ed8; min-height: 44px; cursor: pointer; }
  button[value=complete] { background: #1d4ed8; color: #fff; }
  button[value=fail] { background: #fff; color: #1d4ed8; }
  button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .note { color: #555; font-size: 0.875rem; }
</style>
</head>
<body>
<main>
<h1>3-D Secure authentication</h1>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(`${c.brand} ending in ${c.last4}`)}</p>
${
  open
    ? `<form method="post" action="${escapeHtml(action)}" enctype="text/plain">
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</form>`
    : `<p role="status">This authentication is already answered.</p>`
}
<p class="note">This is the built-in test payment provider: it plays your bank's part.</p>
</main>
</body>
</html>
`;
}
