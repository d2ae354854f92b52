import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailBody, validationErrorBody } from '@paddock/contract/common';
import type { Deps } from '../../deps';
import { hasPermission } from '../../plugins/auth';
import {
  changesSince,
  PUBLIC_TOPICS,
  TOPICS,
  type Change,
  type ChangeFeed,
  type Topic,
} from '../../plugins/changes';
import { Forbidden } from '../../plugins/errors';
import { screenName, screenPath } from '@paddock/contract/screens';
import { checkIn } from '../screens/screens.service';
import { RIG_SCHEME, rigFromHeader } from '../laps/laps.service';
import { eventStreamsGauge } from '../../plugins/business-metrics';
import type { Draining } from '../../lib/draining';

const HEARTBEAT_MS = 15_000;
/** The reconnect delay a stream ended by a shutdown asks for: another instance is there now. */
export const SHUTDOWN_RETRY_MS = 250;

const eventsQuery = z.object({
  topics: z
    .string()
    .regex(
      new RegExp(`^(${TOPICS.join('|')})(,(${TOPICS.join('|')})){0,9}$`),
      `Choose topics from: ${TOPICS.join(', ')}.`,
    ),
  /** For clients that cannot send the Last-Event-ID header on their first connection. */
  last_event_id: z
    .string()
    .regex(/^\d{1,15}$/)
    .optional(),
  /** A wall screen names itself to be listed for staff (and told to reload). */
  screen: screenName.optional(),
  /** The page the screen shows. */
  path: screenPath.optional(),
  /** The build the screen runs (the entry script its page loaded). */
  build: z
    .string()
    .regex(/^[\w./-]{1,100}$/)
    .optional(),
});

const frame = (change: Change) =>
  `id: ${change.seq}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;

/**
 * `GET /api/events?topics=boards,laps`: server-sent events of the change feed. A reconnecting
 * client sends Last-Event-ID and first gets what it missed. The first event, `hello`, names the
 * build the server serves (a screen on another build reloads) and the screen's id; a `ping`
 * every 15 s keeps proxies and the client's offline badge honest and checks a named screen in.
 */
export const eventsRoutes =
  (
    deps: Deps & { changes: ChangeFeed; build: string | null; draining: Draining },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    app.get(
      '/events',
      {
        schema: {
          tags: ['changes'],
          summary:
            'Server-sent events: what changed (public topics: boards, laps, settings, pages, screens)',
          querystring: eventsQuery,
          response: {
            // An endless stream, never a JSON answer: generic clients must not wait for its end.
            200: {
              description: 'Server-sent events (`text/event-stream`), one per change, until closed',
              content: { 'text/event-stream': { schema: z.string() } },
            },
            400: validationErrorBody,
            403: detailBody,
          },
        },
      },
      async (request, reply) => {
        const topics = [...new Set(request.query.topics.split(','))] as Topic[];
        // A rig (its key: the agent, the rig screen) follows its own seat's bookings (0120).
        const rig = request.headers.authorization?.startsWith(`${RIG_SCHEME} `)
          ? await rigFromHeader(db, request.headers.authorization)
          : null;
        const staffOnly = topics.filter(
          (t) => !PUBLIC_TOPICS.includes(t) && !(rig && t === 'reservations'),
        );
        const refused = staffOnly.filter(
          (t) =>
            !hasPermission(
              request.authUser,
              t === 'events' || t === 'parties'
                ? 'leaderboards.can_manage_race_events'
                : 'reservations.change_reservation',
            ),
        );
        if (refused.length) throw new Forbidden(`Staff only: ${refused.join(', ')}.`);
        const header = request.headers['last-event-id'];
        const lastId = Number(
          (Array.isArray(header) ? header[0] : header) ?? request.query.last_event_id ?? NaN,
        );

        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        const { screen, path, build } = request.query;
        const checkInScreen = async () =>
          screen
            ? checkIn(db, {
                name: screen,
                path: path ?? '',
                build: build ?? null,
                userAgent: request.headers['user-agent'] ?? '',
              }).catch(() => null)
            : null;
        const screenId = await checkInScreen();
        res.write('retry: 2000\n\n');
        res.write(
          `event: hello\ndata: ${JSON.stringify({ build: deps.build, screen_id: screenId })}\n\n`,
        );
        // Subscribe first, then catch up: nothing falls between. What the catch-up sent is not
        // sent again when its announcement arrives. Announcements are not skipped by number:
        // changes are numbered when written and announced after they commit (decision 0053),
        // so a lower number can be announced after a higher one and must still be heard.
        const replayed = new Set<number>();
        const pending: Change[] = [];
        let caughtUp = false;
        const send = (change: Change) => {
          if (replayed.has(change.seq) || !topics.includes(change.topic)) return;
          if (rig && change.topic === 'reservations' && change.id !== rig.calendarId) return;
          res.write(frame(change));
        };
        const unsubscribe = deps.changes.subscribe((change) =>
          caughtUp ? send(change) : pending.push(change),
        );
        // The feed is back after losing its connection: what it missed meanwhile is unknown
        // here, so the stream ends and its client resumes from the stored changes (Last-Event-ID).
        const unsubscribeReset = deps.changes.subscribeCache((message) => {
          if (message === null && deps.changes.connected) res.end();
        });
        request.raw.on('close', unsubscribeReset);
        // Shutting down: a short `retry` is the hint to come back at once (to another instance,
        // through the load balancer), resuming from Last-Event-ID.
        const unsubscribeDrain = deps.draining.onStart(() => {
          res.end(`retry: ${SHUTDOWN_RETRY_MS}\n\n`);
        });
        request.raw.on('close', unsubscribeDrain);
        try {
          if (Number.isFinite(lastId))
            for (const change of await changesSince(db, lastId, topics)) {
              send(change);
              replayed.add(change.seq);
            }
        } catch (err) {
          // The database is away: the client tries again (`retry`) and resumes from the same id.
          request.log.warn({ err }, 'event stream catch-up failed');
          unsubscribe();
          res.end();
          return;
        }
        caughtUp = true;
        // Ended already (opened while the instance shuts down, or cut during the catch-up): its
        // 'close' may have passed, so nothing below would be undone.
        if (res.writableEnded || res.destroyed) return void unsubscribe();
        for (const change of pending) send(change);
        const heartbeat = setInterval(() => {
          res.write(`event: ping\ndata: ${Date.now()}\n\n`);
          void checkInScreen();
        }, HEARTBEAT_MS);
        eventStreamsGauge.inc();
        request.raw.on('close', () => {
          eventStreamsGauge.dec();
          clearInterval(heartbeat);
          unsubscribe();
        });
      },
    );
  };
