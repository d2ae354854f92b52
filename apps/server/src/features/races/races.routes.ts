import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, paginated } from '@paddock/contract/common';
import {
  assist,
  driver,
  driversQuery,
  eventsQuery,
  party,
  partiesQuery,
  partyHost,
  partyMember,
  partyMemberAdd,
  partyUpdate,
  preset,
  presetCreate,
  raceEvent,
  raceEventUpdate,
  signalResult,
  signalWrite,
  skin,
  skinsQuery,
  socketTicket,
} from '@paddock/contract/races';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { Forbidden } from '../../plugins/errors';
import { rigFromHeader } from '../laps/laps.service';
import { type SignalHooks, sendSignal } from './launcher-signals';
import { getEvent, listCurrentEvents, rigMayUse } from './load-events';
import {
  addMember,
  deleteParty,
  hostParty,
  listParties,
  removeMember,
  updateParty,
} from './parties';
import { createPreset, deletePreset, listPresets } from './presets';
import { listAssists, listSkins, locationOf, searchDrivers } from './race-lookups';
import { issueTicket } from './socket-tickets';
import { updateEvent } from './update-event';

/**
 * Race control (spec staff §7 `/races/*`): parties, the seats' race events, presets, host
 * signals and socket tickets. Every change needs leaderboards.can_manage_race_events (the route
 * access table); a rig key reads the event its own seat runs.
 */
export const racesRoutes =
  (
    deps: Deps,
    signalHooks: SignalHooks = {},
    /** A party set up for later or moved: this instance's timer re-arms (decision 0101). */
    partyWaiting: () => void = () => {},
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const tags = ['races'];

    app.get(
      '/races/parties',
      {
        schema: {
          tags,
          summary: 'Parties of a location (else the caller’s own location), with related',
          querystring: partiesQuery,
          response: { 200: z.array(party), ...errors },
        },
      },
      async (request) => {
        const location = request.query.location ?? (await locationOf(db, request.authUser!.id));
        return listParties(db, location ?? undefined);
      },
    );
    app.post(
      '/races/parties/host',
      {
        schema: {
          tags,
          summary:
            'The seat hosts a new party: now (its event becomes the party’s) or at starts_at',
          body: partyHost,
          response: { 201: party, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await hostParty(db, requireUser(request), request.body, partyWaiting)),
    );
    app.patch(
      '/races/parties/:id',
      {
        schema: {
          tags,
          summary: 'Rename a party, or move a waiting party’s start (null: now)',
          params: idParam,
          body: partyUpdate,
          response: { 200: party, ...errors },
        },
      },
      async (request) =>
        updateParty(db, requireUser(request), request.params.id, request.body, partyWaiting),
    );
    app.delete(
      '/races/parties/:id',
      {
        schema: {
          tags,
          summary: 'End a party: every seat gets its own event back',
          params: idParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteParty(db, requireUser(request), request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/races/parties/members',
      {
        schema: {
          tags,
          summary: 'A seat of the party’s location joins the party',
          body: partyMemberAdd,
          response: { 201: partyMember, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await addMember(db, requireUser(request), request.body)),
    );
    app.delete(
      '/races/parties/members/:id',
      {
        schema: {
          tags,
          summary: 'A seat leaves its party and gets its own event back (the host ends the party)',
          params: idParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await removeMember(db, requireUser(request), request.params.id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/races/events',
      {
        schema: {
          tags,
          summary: 'The events a location’s seats run now (a party’s once), for the launcher',
          querystring: eventsQuery,
          response: { 200: z.array(raceEvent), ...errors },
        },
      },
      async (request) => {
        const location = request.query.location ?? (await locationOf(db, request.authUser!.id));
        return listCurrentEvents(db, location ?? undefined);
      },
    );
    app.get(
      '/races/events/:id',
      {
        schema: {
          tags,
          summary: 'A race event (staff, or the rig key of a seat that runs it)',
          params: idParam,
          response: { 200: raceEvent, ...errors },
        },
      },
      async (request) => {
        const header = request.headers.authorization;
        if (header?.startsWith('Rig ')) {
          const rig = await rigFromHeader(db, header);
          if (!(await rigMayUse(db, rig.calendarId, request.params.id)))
            throw new Forbidden('This rig key is for another seat.');
        }
        return getEvent(db, request.params.id);
      },
    );
    for (const method of ['patch', 'put'] as const)
      app[method](
        '/races/events/:id',
        {
          schema: {
            tags,
            summary: 'Change an event: only the fields sent change (a preset loads first)',
            params: idParam,
            body: raceEventUpdate,
            response: { 200: raceEvent, ...errors },
          },
        },
        async (request) => updateEvent(db, requireUser(request), request.params.id, request.body),
      );
    app.post(
      '/races/events/:id/signal',
      {
        schema: {
          tags,
          summary: 'A host signal to every seat of the event (SESSION_START, SESSION_EXIT, …)',
          params: idParam,
          body: signalWrite,
          response: { 202: signalResult, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await sendSignal(
              db,
              requireUser(request),
              request.params.id,
              request.body,
              signalHooks,
            ),
          ),
    );
    app.post(
      '/races/events/:id/ticket',
      {
        schema: {
          tags,
          summary: 'A one-time ticket (30 s) to open /ws/launcher/events/{id}/?ticket=…',
          params: idParam,
          response: { 201: socketTicket, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await issueTicket(db, requireUser(request), request.params.id)),
    );

    app.get(
      '/races/presets',
      {
        schema: {
          tags,
          summary: 'Every saved preset',
          response: { 200: z.array(preset), ...errors },
        },
      },
      async () => listPresets(db),
    );
    app.post(
      '/races/presets',
      {
        schema: {
          tags,
          summary: 'Save an event’s settings as a preset',
          body: presetCreate,
          response: { 201: preset, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createPreset(db, requireUser(request), request.body)),
    );
    app.delete(
      '/races/presets/:id',
      {
        schema: {
          tags,
          summary: 'Delete a preset (events that loaded it keep their settings)',
          params: idParam,
          response: { 204: z.undefined(), ...errors },
        },
      },
      async (request, reply) => {
        await deletePreset(db, requireUser(request), request.params.id);
        return reply.status(204).send();
      },
    );
    app.get(
      '/races/assists',
      {
        schema: {
          tags,
          summary: 'The assists an event may allow',
          response: { 200: z.array(assist), ...errors },
        },
      },
      async () => listAssists(),
    );
    app.get(
      '/races/drivers',
      {
        schema: {
          tags,
          summary: 'Find a driver for a seat: id, name and racer name (at most 20)',
          querystring: driversQuery,
          response: { 200: z.array(driver), ...errors },
        },
      },
      async (request) => searchDrivers(db, request.query.search),
    );
    app.get(
      '/skins',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Skins, of one car with ?car=',
          querystring: skinsQuery,
          response: { 200: paginated(skin), ...errors },
        },
      },
      async (request) => listSkins(db, request.query),
    );
  };
