import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addCardRequest, card, cardUserParam, savedCard } from '@paddock/contract/cards';
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
          summary: 'Save the card behind a provider token, replacing the saved one',
          params: cardUserParam,
          body: addCardRequest,
          response: { 200: savedCard },
        },
      },
      async (request) => {
        const userId = await cardOwnerId(db, requireUser(request), request.params.id);
        const warn = (err: unknown, msg: string) => request.log.warn({ err }, msg);
        const saved = await saveCard(db, deps.payments, userId, request.body.token, warn);
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
