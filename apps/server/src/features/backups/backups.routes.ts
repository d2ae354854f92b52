import fs from 'node:fs';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paginated, paginationQuery, detailBody } from '@paddock/contract/common';
import { backupEntry, backupNameParam, backupSchedule } from '@paddock/contract/backups';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { paginate } from '../../plugins/pagination';
import { getSettings, venueTimezone } from '../../plugins/settings';
import { recordAudit } from '../audit/audit.service';
import { backupFile, listBackups, schedule, type BackupRunner } from './backups.service';

const tags = ['backups'];

/** Database backups, for superusers only: a copy is the whole database (decisions 0074, 0114). */
export const backupsRoutes =
  (deps: Deps, runner: BackupRunner): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    app.get(
      '/backups',
      {
        schema: {
          tags,
          summary: 'The backups in DATA_DIR/backups, newest first, and the nightly schedule',
          querystring: paginationQuery,
          response: {
            200: paginated(backupEntry).extend({ schedule: backupSchedule }),
            ...errors,
          },
        },
      },
      async (request) => {
        const all = await listBackups(runner.dir);
        const page = await paginate(
          request.query,
          async () => all.length,
          async (limit, offset) => all.slice(offset, offset + limit),
        );
        const settings = await getSettings(db);
        const nightly = !deps.config.databaseUrl;
        return { ...page, schedule: schedule(settings, await venueTimezone(db), nightly) };
      },
    );
    app.post(
      '/backups',
      {
        schema: {
          tags,
          summary: 'Take a backup now (one snapshot of the whole database)',
          response: { 201: backupEntry, 409: detailBody, ...errors },
        },
      },
      async (request, reply) => {
        const taken = await runner.run('manual');
        await recordAudit(db, request.authUser, {
          action: 'backups.take',
          targetType: 'backup',
          after: { name: taken.name, size_bytes: taken.size_bytes },
        });
        return reply.status(201).send(taken);
      },
    );
    app.get(
      '/backups/:name',
      {
        schema: {
          tags,
          summary: 'Download one backup (restore it with `npm run restore -- FILE`)',
          params: backupNameParam,
          response: {
            200: {
              description: 'The backup file',
              content: { 'application/gzip': { schema: z.string() } },
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { name } = request.params;
        const file = await backupFile(runner.dir, name);
        // The whole database leaves the building: the trail says who took it.
        await recordAudit(db, request.authUser, {
          action: 'backups.download',
          targetType: 'backup',
          after: { name },
        });
        return (
          reply
            .type('application/gzip')
            .header('content-disposition', `attachment; filename="${name}"`)
            .header('cache-control', 'no-store')
            // A stream goes out as it is (no serializer); the schema above documents its bytes.
            .send(fs.createReadStream(file) as unknown as string)
        );
      },
    );
  };
