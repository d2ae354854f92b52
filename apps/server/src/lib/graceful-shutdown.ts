import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often idle keep-alive connections are closed while draining (they turn idle one by one). */
const IDLE_SWEEP_MS = 100;
/**
 * Idle connections are closed only once no request has arrived for this long: a balancer that is
 * slow to see the instance down (a busy machine, a late health check) still sends, and closing a
 * connection it is writing on loses that request.
 */
const QUIET_MS = 500;

export type ShutdownTimes = {
  /** Requests in flight get this long; then their connections are cut. */
  timeoutMs: number;
  /**
   * Kept-alive connections with nothing in flight stay open this long (each answer on them says
   * `Connection: close`): closing one races a request a load balancer may be sending on it at that
   * moment, which then fails without an answer. Long enough for the balancer's health check to
   * see the instance down, and it sends nothing more.
   */
  idleWaitMs: number;
};

/**
 * SIGTERM (decision 0080): say not ready, stop accepting connections, end event streams and
 * launcher sockets with their reconnect hints, let requests in flight finish, close idle
 * connections after the grace, then close the app. A request still running after `timeoutMs` has
 * its connection cut, so the process always ends within the bound. Resolves with whether
 * everything in flight finished by itself.
 */
export async function gracefulShutdown(
  app: FastifyInstance,
  { timeoutMs, idleWaitMs }: ShutdownTimes,
): Promise<boolean> {
  const started = performance.now();
  app.draining.start();
  const server = app.server;
  let drainedInTime = true;
  if (server.listening) {
    // net.Server's own close: no new connections, but, unlike http.Server's, the idle kept-alive
    // ones are left open for now (see idleWaitMs). Called back once every connection is gone.
    const closed = new Promise<void>((resolve) =>
      net.Server.prototype.close.call(server, () => resolve()),
    );
    let lastRequest = performance.now();
    const seen = () => (lastRequest = performance.now());
    server.on('request', seen);
    let sweep: NodeJS.Timeout | undefined;
    let closing = false;
    const grace = setTimeout(
      () => {
        sweep = setInterval(() => {
          if (performance.now() - lastRequest < Math.min(QUIET_MS, idleWaitMs)) return;
          // http.Server's close closes the idle connections too (Node ≥ 19), and its timers.
          if (!closing) server.close();
          closing = true;
          server.closeIdleConnections();
        }, IDLE_SWEEP_MS);
      },
      Math.min(idleWaitMs, timeoutMs),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)),
    );
    if ((await Promise.race([closed, late])) === 'late') {
      drainedInTime = false;
      const open = await new Promise<number>((resolve) =>
        server.getConnections((_err, n) => resolve(n)),
      );
      const sockets = app.websocketServer?.clients.size ?? 0;
      app.log.warn(
        `requests still in flight after ${timeoutMs} ms (${open} connections open, ${sockets} WebSockets): their connections are cut`,
      );
      server.closeAllConnections();
      // Upgraded sockets are no longer the HTTP server's: one that never answered its close frame.
      for (const socket of app.websocketServer?.clients ?? []) socket.terminate();
      await closed;
    }
    clearTimeout(timer);
    clearTimeout(grace);
    clearInterval(sweep);
    server.off('request', seen);
  }
  app.log.info(`shutdown: connections drained after ${Math.round(performance.now() - started)} ms`);
  // The server no longer listens: Fastify's own close runs the preClose and onClose hooks only.
  await app.close();
  app.log.info(`shutdown: app closed after ${Math.round(performance.now() - started)} ms`);
  return drainedInTime;
}
