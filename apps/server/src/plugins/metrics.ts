import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { businessRegistry } from './business-metrics';

export type MetricsSources = {
  pool: pg.Pool;
  /** How long this instance takes to hear everything committed until now (the feed's barrier). */
  feedLag: () => Promise<number | null>;
  sockets: () => number;
};

const NOT_FOUND = { detail: 'Not found.' };

/**
 * `GET /metrics` in Prometheus' text format (docs/decisions/0074). Off unless METRICS_TOKEN is
 * set (then a 404, like any unknown path, and no per-request work at all); on, it answers only
 * `Authorization: Bearer <METRICS_TOKEN>`. Request timing rides on one onResponse hook that
 * reads the time Fastify already measured.
 */
export function registerMetrics(
  app: FastifyInstance,
  token: string | undefined,
  sources: MetricsSources,
) {
  if (!token) {
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send(NOT_FOUND),
    );
    return;
  }
  const registry = new Registry();
  const registers = [registry];
  // Heap, event-loop lag, GC, handles: prom-client's standard process metrics.
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'paddock_http_request_duration_seconds',
    help: 'API requests by route, method and status: the count is the rate, the sum the time',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });
  new Gauge({
    name: 'paddock_db_pool_connections',
    help: 'Database pool connections by state (in_use, idle, max)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { totalCount, idleCount } = sources.pool;
      this.set({ state: 'in_use' }, totalCount - idleCount);
      this.set({ state: 'idle' }, idleCount);
      this.set({ state: 'max' }, sources.pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'paddock_db_pool_waiting',
    help: 'Requests waiting for a database connection',
    registers,
    collect() {
      this.set(sources.pool.waitingCount);
    },
  });
  new Gauge({
    name: 'paddock_change_feed_lag_seconds',
    help: 'Time to hear every change committed until now (-1: the feed is disconnected)',
    registers,
    async collect() {
      const lag = await sources.feedLag();
      this.set(lag ?? -1);
    },
  });
  new Gauge({
    name: 'paddock_launcher_sockets',
    help: 'Launcher WebSocket clients (rigs and race control) on this process',
    registers,
    collect() {
      this.set(sources.sockets());
    },
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && route !== '/metrics')
      requests.observe(
        { method: request.method, route, status: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    done();
  });

  const expected = crypto.createHash('sha256').update(`Bearer ${token}`).digest();
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = crypto
      .createHash('sha256')
      .update(request.headers.authorization ?? '')
      .digest();
    if (!crypto.timingSafeEqual(given, expected))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ detail: 'A valid metrics token is required.' });
    const text = (await registry.metrics()) + (await businessRegistry.metrics());
    return reply.header('content-type', registry.contentType).send(text);
  });
}
