import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../app';

export const accountsRoutes =
  (_deps: Deps): FastifyPluginAsyncZod =>
  async () => {};
