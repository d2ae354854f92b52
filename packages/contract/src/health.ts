import { z } from 'zod';

/** `GET /api/health`: the process answers. */
export const healthBody = z.object({ status: z.literal('ok') });

/** One part of readiness: `ok`, or `down` (with the reason in the log). */
export const checkState = z.enum(['ok', 'down']);

/**
 * `GET /api/ready`: the database answers, its migrations are applied and the change feed
 * listens. 200 when all are `ok`; 503 otherwise, `detail` naming the parts that failed.
 */
export const readyBody = z.object({
  status: z.enum(['ready', 'not_ready']),
  detail: z.string().optional(),
  checks: z.object({ database: checkState, migrations: checkState, changes: checkState }),
});
export type ReadyBody = z.infer<typeof readyBody>;
