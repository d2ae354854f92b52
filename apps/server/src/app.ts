import '@paddock/contract/zod-messages';
import Fastify, { type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import fs from 'node:fs';
import path from 'node:path';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authenticate } from './plugins/auth';
import type { App, Deps } from './deps';
import './app-decorations';
import {
  AllowedMethods,
  answerFrameworkError,
  refuseMethod,
  refuseNulCharacters,
  registerErrorHandler,
} from './plugins/errors';
import { registerFlags } from './plugins/flags';
import { registerCompression, serveWeb } from './plugins/web-delivery';
import { routeAccessHook } from './plugins/route-access';
import { openapiComponentsHook, openapiOptions } from './plugins/openapi';
import { announceThrough, ChangeFeed } from './plugins/changes';
import { SessionCache } from './plugins/session-cache';
import { SeatCache } from './features/reservations/seat-cache';
import { SettingsCache } from './plugins/settings-cache';
import { forgetBoardResults } from './features/laps/boards.service';
import { eventsRoutes } from './features/changes/events.routes';
import { screensRoutes } from './features/screens/screens.routes';
import { plannerRoutes } from './features/planner/planner.routes';
import { refundsRoutes } from './features/refunds/refunds.routes';
import { deskPaymentsRoutes } from './features/desk-payments/desk-payments.routes';
import { waitlistRoutes } from './features/waitlist/waitlist.routes';
import { auditRoutes } from './features/audit/audit.routes';
import { reportsRoutes } from './features/reports/reports.routes';
import { staffRoutes } from './features/accounts/staff.routes';
import { deskCustomerRoutes } from './features/accounts/desk-customers.routes';
import { racesRoutes } from './features/races/races.routes';
import { rigMapRoutes } from './features/rig-session/rig-map.routes';
import { PartyStarter } from './features/races/party-starter';
import { AcServerLink } from './features/ac-server/ac-server.service';
import { acServerRoutes } from './features/ac-server/ac-server.routes';
import { LiveTimingHub } from './features/live-timing/timing-hub';
import { liveTimingRoutes } from './features/live-timing/live-timing.routes';
import { LauncherHub, launcherSocketRoutes } from './features/races/launcher-socket';
import { SOCKET_DEFAULTS } from './features/races/socket-options';
import { SOCKET_MESSAGE_MAX_BYTES } from '@paddock/contract/races';
import { readBuildId } from './features/screens/screens.service';
import { requestLogSerializer } from './lib/log-redaction';
import { requestId } from './lib/request-id';
import { venueRoutes } from './features/venue/venue.routes';
import { accountsRoutes } from './features/accounts/accounts.routes';
import { myDataRoutes } from './features/my-data/my-data.routes';
import { cardsRoutes } from './features/cards/cards.routes';
import { chargesRoutes } from './features/charges/charges.routes';
import { localPaymentRoutes } from './plugins/payments/local-routes';
import { StripePaymentProvider } from './plugins/payments/stripe-provider';
import { StripeEventWorker } from './features/stripe-webhook/event-worker';
import { stripeWebhookRoutes } from './features/stripe-webhook/stripe-webhook.routes';
import { disputesRoutes } from './features/stripe-webhook/disputes.routes';
import { pagesRoutes } from './features/pages/pages.routes';
import { imagesRoutes } from './features/images/images.routes';
import { createImageStorage } from './features/images/image-storage';
import { outboxRoutes } from './features/outbox/outbox.routes';
import { locationsRoutes } from './features/locations/locations.routes';
import { calendarsRoutes } from './features/calendars/calendars.routes';
import { publicAvailabilityRoutes } from './features/calendars/public-availability.routes';
import { widgetScriptRoute } from './features/calendars/widget-script';
import { reservationsRoutes } from './features/reservations/reservations.routes';
import { vouchersRoutes } from './features/vouchers/vouchers.routes';
import { vouchersAdminRoutes } from './features/vouchers/vouchers-admin.routes';
import { checkoutRoutes } from './features/checkout/checkout.routes';
import { ReceiptSender } from './features/checkout/receipts-owed';
import { rigSessionRoutes } from './features/rig-session/rig-session.routes';
import { clubRoutes } from './features/club/club.routes';
import { catalogRoutes } from './features/laps/catalog.routes';
import { boardsRoutes } from './features/laps/boards.routes';
import { StandingsCache } from './features/laps/standings-cache';
import { rigsRoutes } from './features/rigs/rigs.routes';
import { lapsRoutes } from './features/laps/laps.routes';
import { registerSecurityHeaders } from './plugins/security-headers';
import { healthRoutes } from './features/health/health.routes';
import { Readiness } from './features/health/readiness';
import { CarPageOrigin } from './plugins/car-page-origin';
import { registerMetrics } from './plugins/metrics';
import { backupDir } from './ops/backup';
import { BackupRunner } from './features/backups/backups.service';
import { backupsRoutes } from './features/backups/backups.routes';
import { Draining } from './lib/draining';

export async function buildApp(deps: Deps): Promise<App> {
  // One LISTEN connection per instance: the change feed under every live screen.
  const build = readBuildId(deps.webDist);
  const changes = new ChangeFeed(deps.database.url);
  await changes.start();
  // Announcements after a commit ride on the feed's barrier queries (decision 0063).
  announceThrough(deps.database.db, changes);
  // Cached board answers go as soon as any instance says laps or boards changed, before the
  // event streams tell the screens to fetch again.
  changes.subscribe((change) => {
    if (change.topic === 'laps' || change.topic === 'boards') forgetBoardResults();
  });
  // The feed lost or regained its connection: whatever it missed may have changed a board.
  changes.subscribeCache((message) => {
    if (message === null) forgetBoardResults();
  });
  const draining = new Draining();
  // Set once the security headers are worked out (below); the router's refusals use them.
  let headersFor: (url: string) => Readonly<Record<string, string>> = () => ({});
  const app = Fastify({
    logger:
      deps.config.logLevel === 'silent'
        ? false
        : {
            level: deps.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
            serializers: { req: requestLogSerializer },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: answerFrameworkError((url) => headersFor(url)),
    // A slow or silent client cannot hold a connection or a worker forever.
    bodyLimit: deps.config.bodyLimitBytes,
    connectionTimeout: deps.config.connectionTimeoutMs,
    // A graceful shutdown lets requests in flight finish and ends event streams and sockets
    // itself (lib/graceful-shutdown.ts); a plain close (tests) still cuts them.
    forceCloseConnections: true,
    // A request that reaches a closing instance on a kept-alive connection is served (told
    // `Connection: close`) rather than refused: refused, the load balancer could not safely retry a POST.
    return503OnClosing: false,
    requestTimeout: deps.config.requestTimeoutMs,
    // A body dripped byte by byte lived ~67 s with REQUEST_TIMEOUT_SECONDS=30 (issue 27): node
    // made its headers timeout min(60 s, its own 5-minute default) before Fastify set the request
    // timeout, and when the headers timeout is the longer one node swaps the two; it also looks
    // for late requests only every 30 s. A few checks per timeout walk a short list: cheap.
    http: {
      headersTimeout: deps.config.requestTimeoutMs,
      requestTimeout: deps.config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, deps.config.requestTimeoutMs / 4),
    },
    trustProxy: deps.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('draining', draining);
  // While draining, every answer (also of a request already in flight) closes its connection:
  // the client opens its next one elsewhere.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining.started) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const allowedMethods = new AllowedMethods();
  app.addHook('onRoute', allowedMethods.onRoute);
  let webServed = false;
  app.setNotFoundHandler((request, reply) => {
    if (refuseMethod(allowedMethods, request, reply)) return;
    const pathname = request.url.split('?')[0];
    const isApi =
      pathname.startsWith('/api') || pathname.startsWith('/ws') || pathname.startsWith('/assets/');
    if (request.method !== 'GET' || isApi || !webServed)
      return reply.status(404).send({ detail: 'Not found.' });
    // index.html, precompressed like the assets, with its no-cache header (plugins/web-delivery).
    return reply.sendFile('index.html');
  });

  // The pages connect and frame only what they use (decision 0070): their own origin ('self'
  // covers its ws: and wss: too), Stripe's hosts as Stripe.js needs them, and the venue's car
  // page that "View Car" embeds (the car_details_url setting, followed through the change feed).
  const carPage = new CarPageOrigin(deps.database.db, changes);
  await carPage.load();
  headersFor = registerSecurityHeaders(
    app,
    {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", 'https://js.stripe.com'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'", 'https://api.stripe.com'],
          frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    },
    () => carPage.origins,
    () => carPage.widgetOrigins,
  );
  await registerCompression(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Too many attempts. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.`,
    }),
  });
  await app.register(swagger, openapiOptions());
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(websocket, { options: { maxPayload: SOCKET_MESSAGE_MAX_BYTES } });
  // Live timing towers of the servers this instance runs (decision 0122).
  const timing = new LiveTimingHub(deps.database.db, {
    logError: (err, message) => app.log.error({ err }, message),
  });
  app.decorate('liveTiming', timing);
  const acServers = new AcServerLink(
    deps.database.db,
    deps.config.acServer,
    deps.config.dataDir,
    app.log,
    deps.config.accServer,
    { timing, recordDir: deps.config.feedRecordDir },
  );
  app.decorate('acServers', acServers);
  const hub = new LauncherHub(
    deps.database.db,
    changes,
    { ...SOCKET_DEFAULTS, ...deps.launcherSockets },
    {
      signalHooks: acServers.signalHooks,
      // A seat that connects after its party's server started hears where to join.
      onJoin: (eventId) => {
        const remote = acServers.remoteOf(eventId);
        const acc = acServers.acc.remoteOf(eventId);
        return [
          ...(remote ? [{ type: 'server' as const, data: { ac_server: remote }, from: null }] : []),
          ...(acc ? [{ type: 'server' as const, data: { acc_server: acc }, from: null }] : []),
        ];
      },
    },
  );
  app.decorate('launcherHub', hub);
  app.addHook('preClose', async () => hub.close());
  // A standard "service restart" close: rigs and screens reconnect, through the load balancer.
  draining.onStart(() => hub.close(1012, 'Service restart'));
  // A party ended (here or on another instance): its server stops.
  changes.subscribe((change) => {
    if (change.topic === 'parties')
      void acServers
        .stopEnded()
        .catch((err: unknown) => app.log.error({ err }, 'AC server not stopped'));
  });
  app.addHook('preClose', async () => acServers.close());
  // Parties set up for later take their seats at their time, on every instance (decision 0101).
  const partyStarter = new PartyStarter({
    db: deps.database.db,
    logError: (err, message) => app.log.error({ err }, message),
  });
  app.addHook('onReady', async () => partyStarter.start());
  app.addHook('preClose', async () => partyStarter.close());

  app.addHook('onClose', async () => changes.stop());
  // Before any route is registered: every API route gets its guard from the access table.
  app.addHook('onRoute', routeAccessHook());
  app.addHook('onRoute', await openapiComponentsHook());
  app.addHook('preValidation', refuseNulCharacters);
  app.decorateRequest('authUser', null);
  app.decorateRequest('authSession', null);
  const authenticateRequest = authenticate(
    deps.tokens,
    deps.database.db,
    new SessionCache(changes),
  );
  app.decorateRequest('heard', null);
  // One barrier per request, however many caches ask (see ChangeFeed.sync).
  app.decorateRequest('changesHeard', function (this: FastifyRequest) {
    return (this.heard ??= changes.sync());
  });
  // Callback style, and nothing to do without a token: an anonymous request costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const url = request.url;
    if (!request.headers.authorization || !(url.startsWith('/api') || url.startsWith('/ws')))
      return done();
    authenticateRequest(request).then(() => done(), done);
  });

  registerMetrics(app, deps.config.metricsToken, {
    pool: deps.database.pool,
    feedLag: async () => {
      const started = performance.now();
      return (await changes.sync()) ? (performance.now() - started) / 1000 : null;
    },
    sockets: () => hub.size,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await registerFlags(app);

  // Seats and their locations for the booking write path, shared by booking and checkout.
  const seatCache = new SeatCache(changes);
  const settingsCache = new SettingsCache(changes);
  // POINTS boards' seasons, ranked once until race results change (decision 0109).
  const standingsCache = new StandingsCache(changes);
  // Booking confirmations, sent after the answer from the rows the checkouts leave (0059).
  const receipts = new ReceiptSender({
    db: deps.database.db,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    mailFrom: deps.config.mailFrom,
    logError: (err, message) => app.log.error({ err }, message),
  });
  app.decorate('receipts', receipts);
  const backups = new BackupRunner(deps.database.pool, backupDir(deps.config.dataDir));
  app.decorate('backups', backups);
  app.addHook('onReady', async () => receipts.start());
  app.addHook('preClose', async () => receipts.close());
  // Stripe's events, handled after the webhook's answer and at start (decision 0084).
  const stripeEvents =
    deps.payments instanceof StripePaymentProvider && deps.config.stripe?.webhookSecret
      ? new StripeEventWorker({
          db: deps.database.db,
          payments: deps.payments,
          mailer: deps.mailer,
          receipts,
          publicUrl: deps.config.publicUrl,
          logError: (err, message) => app.log.error({ err }, message),
          logInfo: (fields, message) => app.log.info(fields, message),
          crashAt: deps.config.checkoutCrashAt,
        })
      : null;
  if (stripeEvents) {
    app.addHook('onReady', async () => void stripeEvents.wake());
    app.addHook('preClose', async () => stripeEvents.close());
  }
  await app.register(
    async (api) => {
      await api.register(venueRoutes(deps));
      await api.register(accountsRoutes(deps));
      await api.register(myDataRoutes(deps));
      await api.register(cardsRoutes(deps));
      await api.register(chargesRoutes(deps));
      await api.register(localPaymentRoutes(deps));
      await api.register(stripeWebhookRoutes(deps, stripeEvents));
      await api.register(disputesRoutes(deps));
      await api.register(pagesRoutes(deps));
      await api.register(imagesRoutes(deps, createImageStorage(deps.config)));
      await api.register(outboxRoutes(deps));
      await api.register(locationsRoutes(deps));
      await api.register(calendarsRoutes({ ...deps, changes }));
      await api.register(publicAvailabilityRoutes({ ...deps, changes }, settingsCache));
      await api.register(reservationsRoutes(deps, seatCache, settingsCache));
      await api.register(vouchersRoutes(deps));
      await api.register(vouchersAdminRoutes(deps));
      await api.register(checkoutRoutes(deps, receipts));
      await api.register(rigSessionRoutes(deps, receipts, settingsCache));
      await api.register(clubRoutes(deps));
      await api.register(rigsRoutes(deps));
      await api.register(catalogRoutes(deps));
      await api.register(lapsRoutes(deps));
      await api.register(acServerRoutes(acServers));
      await api.register(liveTimingRoutes(deps, timing));
      await api.register(boardsRoutes(deps, standingsCache));
      await api.register(eventsRoutes({ ...deps, changes, build, draining }));
      await api.register(screensRoutes({ ...deps, build }));
      await api.register(plannerRoutes(deps));
      await api.register(auditRoutes(deps));
      await api.register(racesRoutes(deps, acServers.signalHooks, () => partyStarter.wake()));
      await api.register(rigMapRoutes(deps));
      await api.register(refundsRoutes(deps));
      await api.register(deskPaymentsRoutes(deps));
      await api.register(waitlistRoutes(deps));
      await api.register(reportsRoutes(deps));
      await api.register(staffRoutes(deps));
      await api.register(deskCustomerRoutes(deps));
      await api.register(healthRoutes(new Readiness(deps.database, changes, draining)));
      await api.register(backupsRoutes(deps, backups));
    },
    { prefix: '/api' },
  );
  await app.register(launcherSocketRoutes({ ...deps, hub }));
  await app.register(widgetScriptRoute);

  if (deps.webDist && fs.existsSync(path.join(deps.webDist, 'index.html'))) {
    await serveWeb(app, deps.webDist);
    webServed = true;
  }
  return app;
}
