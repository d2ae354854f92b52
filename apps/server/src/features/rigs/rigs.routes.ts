// The rig agents' routes (issue 43, decision 0121): pairing a PC with a seat, health reports, and
// the staff's views of both. Who may call each is in plugins/route-access.ts.
import fs from 'node:fs';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody } from '@paddock/contract/common';
import { rigKey } from '@paddock/contract/laps';
import {
  rigAgentBuild,
  rigHealth,
  rigHealthReport,
  rigPair,
  rigPairingPoll,
  rigPairingStart,
  rigPairingStarted,
  rigPairingState,
  waitingRig,
} from '@paddock/contract/rigs';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { NotFound } from '../../plugins/errors';
import { rigFromHeader } from '../laps/laps.service';
import { pairSeat, pollPairing, startPairing, waitingRigs } from './pairing.service';
import { readRigHealth, recordRigHealth } from './health.service';
import { shippedBuild } from './agent-build';

export const rigsRoutes =
  (deps: Deps): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['rigs'];
    const throttled = { 429: detailBody };

    app.post(
      '/rig_pairings',
      {
        // Anyone may ask (a PC without a key): a venue's twelve PCs fit, a flood does not.
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'A pairing code for a PC without a rig key, to show on its screen',
          body: rigPairingStart,
          response: { 201: rigPairingStarted, 400: errors[400], ...throttled },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await startPairing(db, request.body.hostname)),
    );
    app.post(
      '/rig_pairings/key',
      {
        // The agent asks every few seconds while its code is shown.
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: "The PC's rig key once staff paired its code (handed over once), or waiting",
          body: rigPairingPoll,
          response: { 200: rigPairingState, 400: errors[400], 404: detailBody, ...throttled },
        },
      },
      async (request) => pollPairing(db, request.body.secret),
    );
    app.get(
      '/rig_pairings',
      {
        schema: {
          tags,
          summary: 'PCs showing a pairing code now',
          response: { 200: z.array(waitingRig), ...errors },
        },
      },
      async () => waitingRigs(db),
    );
    app.post(
      '/rig_keys/pair',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary:
            "Pairs the PC showing this code with the seat: a new key for that PC, the seat's earlier keys revoked",
          body: rigPair,
          response: { 201: rigKey, ...errors, ...throttled },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await pairSeat(db, requireUser(request), request.body.calendar, request.body.code)),
    );
    app.post(
      '/rigs/health',
      {
        schema: {
          tags,
          summary:
            "A rig agent's health: its version, the sim running, free disk (Authorization: Rig <key>)",
          body: rigHealthReport,
          response: { 204: z.undefined(), ...errors },
        },
        // The rig key is checked before the body is read.
        onRequest: async (request) => {
          rigOf.set(request, await rigFromHeader(db, request.headers.authorization));
        },
      },
      async (request, reply) => {
        await recordRigHealth(db, rigOf.get(request)!, request.body);
        return reply.status(204).send();
      },
    );
    app.get(
      '/rigs/health',
      {
        schema: {
          tags,
          summary: "Each seat's rig agent as it last reported (version, sim, disk, last seen)",
          response: { 200: z.array(rigHealth), ...errors },
        },
      },
      async () => readRigHealth(db),
    );

    // The agent build rigs update themselves to (the rig's key: only paired PCs download it).
    const noBuild = () =>
      new NotFound('This Paddock ships no rig agent build (npm run package:rig makes one).');
    app.get(
      '/rigs/agent',
      {
        onRequest: async (request) => {
          await rigFromHeader(db, request.headers.authorization);
        },
        schema: {
          tags,
          summary: 'The rig agent version this server ships: version, sha256, size, download',
          response: { 200: rigAgentBuild, ...errors },
        },
      },
      async () => {
        const build = shippedBuild(deps.config.rigAgentBuild);
        if (!build) throw noBuild();
        return { ...build, url: '/api/rigs/agent/download' };
      },
    );
    app.get(
      '/rigs/agent/download',
      {
        onRequest: async (request) => {
          await rigFromHeader(db, request.headers.authorization);
        },
        schema: {
          tags,
          summary: 'The rig agent executable this server ships (its sha256 in GET /rigs/agent)',
          response: { 200: z.any().describe('application/octet-stream'), ...errors },
        },
      },
      async (_request, reply) => {
        const build = shippedBuild(deps.config.rigAgentBuild);
        if (!build) throw noBuild();
        return reply
          .type('application/octet-stream')
          .header('content-length', build.size)
          .header('content-disposition', 'attachment; filename="paddock-rig.exe"')
          .send(fs.createReadStream(deps.config.rigAgentBuild));
      },
    );
  };

const rigOf = new WeakMap<object, { id: number; calendarId: number }>();
