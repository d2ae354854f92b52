import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VENUE_TIMEZONE,
  venueConfig,
  venueSettings,
  venueSettingsUpdate,
} from '@paddock/contract/venue';
import type { Deps } from '../../deps';

import { getSettings } from '../../plugins/settings';
import { updateSettings } from './venue.service';

export const venueRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    app.options(
      '/',
      {
        schema: { tags: ['venue'], summary: 'Venue configuration', response: { 200: venueConfig } },
      },
      async () => ({
        ...(await getSettings(db)),
        payment_provider: deps.payments.kind,
        stripe_publishable_key: deps.payments.publishableKey,
        default_timezone: VENUE_TIMEZONE,
      }),
    );
    app.get(
      '/settings',
      {
        schema: {
          tags: ['venue'],
          summary: 'The venue settings the public screens need',
          response: { 200: venueSettings },
        },
      },
      async () => getSettings(db),
    );
    app.patch(
      '/settings',
      {
        schema: {
          tags: ['venue'],
          summary: 'Edit the venue settings (only the fields sent)',
          body: venueSettingsUpdate,
          response: { 200: venueSettings },
        },
      },
      async (request) => updateSettings(db, request.authUser!, request.body),
    );
  };
