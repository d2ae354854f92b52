import { z } from 'zod';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, paginated } from '@paddock/contract/common';
import {
  importQuery,
  importResponse,
  lap,
  lapIngest,
  lapIngestResponse,
  lapReview,
  lapsQuery,
  progressPoint,
  progressQuery,
  rigKey,
  rigKeyCreate,
  rigWhoami,
} from '@paddock/contract/laps';
import { routeErrors as errors } from '../../lib/route-errors';
import { recordAudit } from '../audit/audit.service';
import type { Deps } from '../../deps';
import { calendars } from '../../db/schema/venue';
import { rigKeys } from '../../db/schema/laps';
import { requireUser } from '../../plugins/auth';
import { NotFound, ValidationError } from '../../plugins/errors';
import * as laps from './laps.service';
import { currentEventOf } from '../races/load-events';
import { lapsCounter } from '../../plugins/business-metrics';

/** Results files are small (a full race is ~100 kB); a season's worth stays under this. */
export const IMPORT_LIMIT = 10 * 1024 * 1024;

export const lapsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['laps'];

    app.get(
      '/laps',
      {
        schema: {
          tags,
          summary: "The signed-in racer's laps (staff with laps.change_lap: anyone's)",
          querystring: lapsQuery,
          response: { 200: paginated(lap), ...errors },
        },
      },
      async (request) => laps.listLaps(db, requireUser(request), request.query),
    );
    app.get(
      '/laps/progress',
      {
        schema: {
          tags,
          summary: "My progress: the signed-in racer's sessions on a track, by car",
          querystring: progressQuery,
          response: { 200: z.array(progressPoint), ...errors },
        },
      },
      async (request) => laps.lapProgress(db, requireUser(request).id, request.query.track),
    );

    // The rig key is checked before the body is read: without one, a 401 whatever was sent.
    const rigs = new WeakMap<object, { id: number; calendarId: number }>();
    app.post(
      '/laps',
      {
        onRequest: async (request) => {
          rigs.set(request, await laps.rigFromHeader(db, request.headers.authorization));
        },
        schema: {
          tags,
          summary: 'A lap from a rig (Authorization: Rig <key>); a resend is stored once',
          body: lapIngest,
          response: { 200: lapIngestResponse, 201: lapIngestResponse, ...errors },
        },
      },
      async (request, reply) => {
        const result = await laps.ingestLap(db, rigs.get(request)!, request.body);
        if (result.created) lapsCounter.inc({ source: 'rig' });
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );
    app.patch(
      '/laps/:id',
      {
        schema: {
          tags,
          summary: 'Invalidate or restore a lap (with a reason), or give it to another racer',
          params: idParam,
          body: lapReview,
          response: { 200: lap, ...errors },
        },
      },
      async (request) => laps.reviewLap(db, request.authUser!, request.params.id, request.body),
    );

    // The results file arrives as it is: ACC writes UTF-16LE, which a JSON parser would refuse.
    await app.register(async (files) => {
      files.removeAllContentTypeParsers();
      files.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: IMPORT_LIMIT },
        (_request, body, done) => done(null, body),
      );
      files.post(
        '/laps/import',
        {
          bodyLimit: IMPORT_LIMIT,
          schema: {
            tags,
            summary:
              'Import a results file of AC, ACC, rFactor 2 / Le Mans Ultimate (XML) or a RaceRoom server (the file as the request body)',
            querystring: importQuery,
            // The file's bytes as they are, under any content type (ACC writes UTF-16LE).
            documentBody: {
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            },
            response: { 200: importResponse, ...errors },
          },
        },
        async (request) => {
          if (!Buffer.isBuffer(request.body) || request.body.length === 0)
            throw ValidationError.field('file', 'Send the results file as the request body.');
          const imported = await laps.importResults(
            db,
            requireUser(request),
            request.body,
            new Date(),
            // Checked against `importQuery` by the route's schema; this inner scope loses its type.
            { xmlSim: (request.query as z.infer<typeof importQuery>).sim },
          );
          lapsCounter.inc({ source: 'import' }, imported.laps_added);
          return imported;
        },
      );
    });

    app.get(
      '/rig_keys',
      { schema: { tags, response: { 200: z.array(rigKey), ...errors } } },
      async () => {
        const rows = await db
          .select({ key: rigKeys, calendarName: calendars.name })
          .from(rigKeys)
          .innerJoin(calendars, eq(calendars.id, rigKeys.calendarId))
          .orderBy(desc(rigKeys.createdAt));
        return rows.map(({ key, calendarName }) => ({
          id: key.id,
          calendar: key.calendarId,
          calendar_name: calendarName,
          label: key.label,
          created: key.createdAt.toISOString(),
          revoked: key.revokedAt !== null,
        }));
      },
    );
    app.get(
      '/rig_keys/me',
      {
        schema: {
          tags,
          summary: "A rig agent's own seat and the event it runs now (Authorization: Rig <key>)",
          response: { 200: rigWhoami, ...errors },
        },
      },
      async (request) => {
        const rig = await laps.rigFromHeader(db, request.headers.authorization);
        const [row] = await db
          .select({ name: calendars.name, label: rigKeys.label })
          .from(rigKeys)
          .innerJoin(calendars, eq(calendars.id, rigKeys.calendarId))
          .where(eq(rigKeys.id, rig.id));
        return {
          id: rig.id,
          calendar: rig.calendarId,
          calendar_name: row.name,
          label: row.label,
          event: await currentEventOf(db, rig.calendarId),
        };
      },
    );
    app.post(
      '/rig_keys',
      {
        schema: {
          tags,
          summary: "A new key for a seat's rig agent; the key is shown only in this answer",
          body: rigKeyCreate,
          response: { 201: rigKey, ...errors },
        },
      },
      async (request, reply) => {
        const [seat] = await db
          .select({ id: calendars.id, name: calendars.name })
          .from(calendars)
          .where(eq(calendars.id, request.body.calendar));
        if (!seat)
          throw ValidationError.field(
            'calendar',
            `Invalid pk "${request.body.calendar}" - object does not exist.`,
          );
        const { key, keyHash } = laps.newRigKey();
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(rigKeys)
            .values({ calendarId: seat.id, keyHash, label: request.body.label })
            .returning();
          // A rig key lets a machine post laps for the seat: who made one is worth knowing.
          await recordAudit(tx, requireUser(request), {
            action: 'rig_key.create',
            targetType: 'calendar',
            targetId: seat.id,
            after: { label: created.label },
          });
          return created;
        });
        return reply.status(201).send({
          id: row.id,
          calendar: seat.id,
          calendar_name: seat.name,
          label: row.label,
          created: row.createdAt.toISOString(),
          revoked: false,
          key,
        });
      },
    );
    app.delete(
      '/rig_keys/:id',
      { schema: { tags, params: idParam, response: { 204: z.undefined(), ...errors } } },
      async (request, reply) => {
        await db.transaction(async (tx) => {
          const rows = await tx
            .update(rigKeys)
            .set({ revokedAt: new Date() })
            .where(eq(rigKeys.id, request.params.id))
            .returning({ calendar: rigKeys.calendarId, label: rigKeys.label });
          if (rows.length === 0) throw new NotFound();
          await recordAudit(tx, requireUser(request), {
            action: 'rig_key.revoke',
            targetType: 'calendar',
            targetId: rows[0].calendar,
            before: { label: rows[0].label },
          });
        });
        return reply.status(204).send();
      },
    );
  };
