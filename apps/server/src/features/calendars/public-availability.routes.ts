import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody } from '@paddock/contract/common';
import {
  type PublicAvailability,
  publicAvailability,
  publicAvailabilityQuery,
} from '@paddock/contract/public-availability';
import { SIGN_UP_TO_SEE_AVAILABILITY as SIGN_UP_FIRST } from '@paddock/contract/booking-words';
import type { Deps } from '../../deps';
import { AbuseLimits } from '../../plugins/abuse-limits';
import type { ChangeFeed } from '../../plugins/changes';
import { Forbidden, Unauthorized } from '../../plugins/errors';
import type { SettingsCache } from '../../plugins/settings-cache';
import { AnswerCache } from './answer-cache';
import { publicDayJson } from './public-availability';

/** Visitors' day views per client address and minute: a person paging days, never a crawler. */
export const PUBLIC_AVAILABILITY_PER_MINUTE = 60;

/** Availability before signing up (issue 45, decision 0123), behind the venue's setting. */
export const publicAvailabilityRoutes =
  (deps: Deps & { changes: ChangeFeed }, settingsCache: SettingsCache): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const answers = new AnswerCache(deps.changes);
    // Counted in PostgreSQL: one short statement a view, so every instance shares the limit.
    const limits = new AbuseLimits(db);

    app.get(
      '/public/availability',
      {
        schema: {
          tags: ['calendars'],
          summary: "A location's seats, prices and free start times on a date, for visitors",
          querystring: publicAvailabilityQuery,
          response: {
            200: publicAvailability,
            401: detailBody,
            403: detailBody,
            429: detailBody,
          },
        },
      },
      async (request, reply) => {
        const heard = () => request.changesHeard();
        const settings = await settingsCache.lookup(db, heard)();
        if (!settings.public_availability)
          throw request.authUser ? new Forbidden(SIGN_UP_FIRST) : new Unauthorized(SIGN_UP_FIRST);
        await limits.enforce({
          key: `public-avail:ip:${request.ip}`,
          max: PUBLIC_AVAILABILITY_PER_MINUTE,
          seconds: 60,
        });
        const json = await publicDayJson(answers, heard, db, request.query);
        return reply
          .type('application/json; charset=utf-8')
          .send(json as unknown as PublicAvailability);
      },
    );
  };
