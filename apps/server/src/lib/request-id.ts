import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** An id a proxy or load balancer already gave the request, when it is a plain token. */
const FORWARDED_ID = /^[\w.:-]{1,100}$/;

/**
 * Every request's id, in each of its log lines and in the `x-request-id` answer header: the one
 * the proxy in front sent (so its logs and ours join), or a new random one. Not a counter, so
 * ids from several instances behind one load balancer never collide.
 */
export function requestId(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && FORWARDED_ID.test(given) ? given : crypto.randomUUID();
}
