import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addCardRequest, card, cardUserParam, saveCardResponse } from '@paddock/contract/cards';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { cardHooks } from '../../plugins/payments/card-hooks';
import { cardOwnerId, deleteCard, getCard, saveCard } from './cards.service';

export const cardsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['cards'];

    app.get(
      '/users/:id/card',
      {
        schema: { tags, params: cardUserParam, response: { 200: card } },
      },
      async (request) => {
        const userId = await cardOwnerId(db, requireUser(request), request.params.id);
        return getCard(db, deps.payments, userId);
      },
    );

    app.post(
      '/users/:id/card',
      {
        schema: {
          tags,
          summary:
            'Save the card behind a provider token (a SetupIntent for off-session use), replacing the saved one; a card whose bank asks for 3-D Secure answers the challenge, then its setup_intent saves it',
          params: cardUserParam,
          body: addCardRequest,
          response: { 200: saveCardResponse },
        },
      },
      async (request) => {
        const userId = await cardOwnerId(db, requireUser(request), request.params.id);
        const warn = (err: unknown, msg: string) => request.log.warn({ err }, msg);
        // The challenge comes back to the page the card was entered on (the web sends it).
        const returnUrl = sameSiteUrl(deps.config.publicUrl, request.body.return_url);
        const saved = await saveCard(db, deps.payments, userId, request.body, returnUrl, warn);
        if ('status' in saved) return saved;
        for (const err of await cardHooks(deps).cardSaved(userId))
          request.log.error({ err }, 'a card-saved listener failed');
        return saved;
      },
    );

    app.delete(
      '/users/:id/card',
      {
        schema: { tags, params: cardUserParam, response: { 200: z.object({}).strict() } },
      },
      async (request) => {
        const userId = await cardOwnerId(db, requireUser(request), request.params.id);
        const warn = (err: unknown, msg: string) => request.log.warn({ err }, msg);
        await deleteCard(db, deps.payments, userId, warn);
        return {};
      },
    );
  };

/** The page the web named when it is ours, else the dashboard: never elsewhere. */
function sameSiteUrl(publicUrl: string, url: string | undefined): string {
  try {
    if (url && new URL(url).origin === new URL(publicUrl).origin) return url;
  } catch {
    // Not a URL: fall through.
  }
  return `${publicUrl}/dashboard`;
}
