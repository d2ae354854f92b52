import type { FastifyInstance } from 'fastify';

/** How often idle keep-alive connections are closed while draining (they turn idle one by one). */
const IDLE_SWEEP_MS = 100;

/**
 * SIGTERM (decision 0080): say not ready, stop accepting connections, end event streams and
 * launcher sockets with their reconnect hints, let requests in flight finish (each connection is
 * closed once it is idle), then close the app. A request still running after `timeoutMs` has its
 * connection cut, so the process always ends within the bound. Resolves with whether everything
 * in flight finished by itself.
 */
export async function gracefulShutdown(app: FastifyInstance, timeoutMs: number): Promise<boolean> {
  app.draining.start();
  const server = app.server;
  let drainedInTime = true;
  if (server.listening) {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(
      (resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)),
    );
    if ((await Promise.race([closed, late])) === 'late') {
      drainedInTime = false;
      app.log.warn(`requests still in flight after ${timeoutMs} ms: their connections are cut`);
      server.closeAllConnections();
      // Upgraded sockets are no longer the HTTP server's: one that never answered its close frame.
      for (const socket of app.websocketServer?.clients ?? []) socket.terminate();
      await closed;
    }
    clearTimeout(timer);
    clearInterval(sweep);
  }
  // The server no longer listens: Fastify's own close runs the preClose and onClose hooks only.
  await app.close();
  return drainedInTime;
}
