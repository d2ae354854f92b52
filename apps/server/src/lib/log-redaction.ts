import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials (feed tokens, login links). */
const SECRET_PARAMS = /([?&](?:token|access|key|password)=)[^&#]*/gi;

/** The URL with the values of credential parameters replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}

/** Fastify's request log line, without credentials in the query string. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}
