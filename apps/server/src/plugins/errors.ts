import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';

/** A 400 in DRF's shape: `{field: [message]}`, `non_field_errors` for the rest. */
export class ValidationError extends Error {
  constructor(public readonly fields: Record<string, string[]>) {
    super(Object.values(fields).flat().join(' '));
  }
  static field(field: string, message: string) {
    return new ValidationError({ [field]: [message] });
  }
  static nonField(message: string) {
    return new ValidationError({ non_field_errors: [message] });
  }
}

export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly detail: string,
    public readonly code?: string,
  ) {
    super(detail);
  }
}
export class NotFound extends HttpError {
  constructor(detail = 'Not found.') {
    super(404, detail);
  }
}
export class Forbidden extends HttpError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(403, detail);
  }
}
export class Unauthorized extends HttpError {
  constructor(detail = 'Authentication credentials were not provided.', code?: string) {
    super(401, detail, code);
  }
}
export class PaymentError extends HttpError {
  constructor(detail: string) {
    super(402, detail, 'payment_failed');
  }
}

// fastify-type-provider-zod puts the zod issue's code in `keyword` and its other fields in `params`.
type ZodIssueParams = { keys?: string[] };

function zodFields(error: {
  validation: { keyword?: string; instancePath: string; message?: string; params: unknown }[];
}) {
  const out: Record<string, string[]> = {};
  const add = (field: string, message: string) => (out[field] ??= []).push(message);
  for (const v of error.validation) {
    const keys = (v.params as ZodIssueParams | undefined)?.keys;
    const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'non_field_errors';
    if (v.keyword === 'unrecognized_keys' && keys) {
      for (const key of keys)
        add(field === 'non_field_errors' ? key : `${field}.${key}`, 'Unknown field.');
    } else {
      add(field, humanize(v.message ?? 'Invalid value.'));
    }
  }
  return out;
}

function humanize(message: string) {
  if (/received undefined/.test(message)) return 'This field is required.';
  return message.endsWith('.') ? message : `${message}.`;
}

/** A 5xx line says which user met it (the request's id is on every line already). */
const who = (request: FastifyRequest) => ({ userId: request.authUser?.id ?? null });

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ValidationError) return reply.status(400).send(error.fields);
    if (error instanceof HttpError) {
      const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retryAfter) void reply.header('retry-after', String(retryAfter));
      // A dependency that failed (e.g. image storage): the caller gets the 5xx, the log its cause.
      if (error.statusCode >= 500)
        request.log.error({ err: error.cause ?? error, ...who(request) }, error.detail);
      return reply
        .status(error.statusCode)
        .send(error.code ? { detail: error.detail, code: error.code } : { detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) return reply.status(400).send(zodFields(error));
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause?.issues, ...who(request) },
        'response did not match its schema',
      );
      return reply.status(500).send({ detail: 'A server error occurred.' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ detail: error.message, code: 'throttled' });
    if (status >= 400 && status < 500) {
      if (status === 400) return reply.status(400).send({ non_field_errors: [error.message] });
      return reply.status(status).send({ detail: error.message });
    }
    if (databaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ detail: DATABASE_UNAVAILABLE, code: 'database_unavailable' });
    }
    // A value the database cannot take that a schema let through: still the caller's mistake.
    const badValue = databaseValueError(error);
    if (badValue) {
      request.log.warn({ err: error }, 'value refused by the database');
      return reply.status(400).send({ non_field_errors: [badValue] });
    }
    request.log.error({ err: error, ...who(request) }, 'unhandled error');
    return reply.status(500).send({ detail: 'A server error occurred.' });
  });
}

export const DATABASE_UNAVAILABLE =
  'The service is briefly unavailable. Please try again in a moment.';
/** What a 503 tells the caller to wait: a database restart or failover takes seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL SQLSTATEs that mean the connection or the server went away, not that the request
 * was wrong: admin shutdown, crash shutdown, cannot connect now (57P01–57P03), and class 08
 * (connection exceptions). 40001/40P01 are not here: those are the caller's retry, not ours.
 */
const LOST_CONNECTION_CODES = /^(57P0[123]|08[0-9A-Z]{3})$/;
/** Socket errors of a database connection, and node-postgres's own words for a dead one. */
const LOST_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);
const LOST_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
  'terminating connection',
];

/**
 * Whether `error` (or its cause: drizzle wraps the driver's error in a DrizzleQueryError) says
 * the database could not be reached or dropped the connection: the request may succeed later.
 */
export function databaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === 'object' && depth < 4;
    depth++
  ) {
    if (
      typeof e.code === 'string' &&
      (LOST_CONNECTION_CODES.test(e.code) || LOST_SOCKET_CODES.has(e.code))
    )
      return true;
    if (
      typeof e.message === 'string' &&
      LOST_MESSAGES.some((m) => (e!.message as string).startsWith(m))
    )
      return true;
    // An AggregateError (a connect that tried IPv4 and IPv6) holds the socket errors.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => databaseUnavailable(inner))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * PostgreSQL's "data exception" codes for values out of range or not representable. This is a
 * safety net: each one means a schema let a bad value through, and the fuzz test reports it.
 */
export const VALUE_ERRORS: Record<string, string> = {
  '22003': 'A number is out of range.',
  '22P02': 'A value has the wrong format.',
  '22021': 'Text may not contain null characters.',
  '22007': 'A date or time is not valid.',
  '22008': 'A date or time is out of range.',
  '22001': 'A text is too long.',
};

function databaseValueError(error: unknown): string | null {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 3;
    depth++
  ) {
    if (typeof e.code === 'string' && VALUE_ERRORS[e.code]) return VALUE_ERRORS[e.code];
    e = e.cause as typeof e;
  }
  return null;
}

/**
 * A raw upload's bytes (a Buffer or other typed array) or a stream: the route's own to read.
 * Walking a Buffer's entries made an array per byte, and 2 MB ran the server out of heap
 * (issue 27). Parsed bodies, params and queries are objects of their own kinds (a query's
 * prototype is the parser's own), so this names what to skip rather than what to walk.
 */
const isBinary = (v: object) =>
  ArrayBuffer.isView(v) ||
  v instanceof ArrayBuffer ||
  typeof (v as { pipe?: unknown }).pipe === 'function';

/**
 * The path of the first string (or key) holding a NUL character, e.g. `reservations.0.notes`.
 * Walks with its own stack, not by recursion: a body nested thousands deep is only a 400 later.
 * Bytes and streams are not looked into.
 */
export function nulCharacterPath(value: unknown): string | null {
  type Node = { value: unknown; key: string | null; parent: Node | null };
  const pathOf = (node: Node, last?: string) => {
    const parts: string[] = last === undefined ? [] : [last];
    for (let n: Node | null = node; n && n.key !== null; n = n.parent) parts.unshift(n.key);
    return parts.join('.') || 'non_field_errors';
  };
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(node);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], key: String(i), parent: node });
    } else if (v && typeof v === 'object' && !isBinary(v)) {
      const entries = Object.entries(v);
      for (const [key] of entries) if (key.includes('\u0000')) return pathOf(node, key);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i][1], key: entries[i][0], parent: node });
    }
  }
  return null;
}

export const NUL_CHARACTER_MESSAGE = 'Null characters are not allowed.';

/**
 * preValidation hook for every route: PostgreSQL cannot store U+0000 in text, so a NUL anywhere
 * in the params, query or body is a 400 naming the field, before any schema or handler runs.
 */
export function refuseNulCharacters(
  request: { url: string; params: unknown; query: unknown; body: unknown },
  _reply: unknown,
  done: (error?: Error) => void,
) {
  // Params and query come from the URL, where a NUL can only arrive as %00: most requests
  // skip their walk (a cached board answer is framework work only, issue 9).
  const parts = request.url.includes('%00')
    ? [request.params, request.query, request.body]
    : [request.body];
  for (const part of parts) {
    if (part === undefined || part === null) continue;
    if (typeof part === 'object' && isBinary(part)) continue;
    const field = nulCharacterPath(part);
    if (field) return done(ValidationError.field(field, NUL_CHARACTER_MESSAGE));
  }
  done();
}

/**
 * The methods each route path takes, for a 405's `Allow` (RFC 9110 §15.5.6): an onRoute hook
 * collects them as routes are added, and the not-found handler asks before it answers 404.
 */
export class AllowedMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, Set<string>>();

  readonly onRoute = (route: { method: string | string[]; url: string }) => {
    // The API's routes only: a wildcard (the web app's files) says nothing about methods, and
    // `/metrics` when off must stay a 404 to any method, like a path that does not exist.
    if (!route.url.startsWith('/api') || route.url.includes('*')) return;
    const url = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
    let methods = this.byUrl.get(url);
    if (!methods) {
      methods = new Set();
      this.byUrl.set(url, methods);
      const pattern = url
        .split('/')
        .map((part) =>
          part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'),
        )
        .join('/');
      this.routes.push({ pattern: new RegExp(`^${pattern}/?$`), methods });
    }
    for (const method of ([] as string[]).concat(route.method)) methods.add(method);
    if (methods.has('GET')) methods.add('HEAD');
  };

  /** The methods `pathname` takes, sorted; empty when no route has that path. */
  allowed(pathname: string): string[] {
    const found = new Set<string>();
    for (const { pattern, methods } of this.routes)
      if (pattern.test(pathname)) for (const m of methods) found.add(m);
    return [...found].sort();
  }
}

export const METHOD_NOT_ALLOWED = (method: string) => `Method "${method}" not allowed.`;

/**
 * Not-found handler's first question: does the path exist with other methods? Then the answer
 * is 405 with `Allow` (DRF's words), not 404. Returns whether it answered.
 */
export function refuseMethod(
  allowed: AllowedMethods,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const methods = allowed.allowed(request.url.split('?')[0]);
  if (methods.length === 0 || methods.includes(request.method)) return false;
  void reply
    .status(405)
    .header('allow', methods.join(', '))
    .send({ detail: METHOD_NOT_ALLOWED(request.method) });
  return true;
}

export const URL_TOO_LONG = 'The address is too long.';
export const URL_NOT_VALID = 'The address is not valid.';

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs, a path
 * value over `maxParamLength` (414) or a malformed escape in the path (400). Fastify's own
 * answer echoed the path and had none of our headers; this one is in the project's shape, has
 * the security headers `headersFor` gives for the URL and the request id, and is logged.
 */
export function answerFrameworkError(
  headersFor: (url: string) => Readonly<Record<string, string>>,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    // The URL itself is not logged: it is what was too long (the request line has its length).
    request.log.warn(
      { code: error.code, method: request.method, urlLength: request.url.length },
      tooLong ? 'path value over the router limit' : 'malformed URL refused',
    );
    void reply.headers(headersFor(request.url)).header('x-request-id', request.id);
    if (tooLong) return reply.status(414).send({ detail: URL_TOO_LONG });
    if (error.code === 'FST_ERR_BAD_URL')
      return reply.status(400).send({ non_field_errors: [URL_NOT_VALID] });
    request.log.error({ err: error }, 'router error');
    return reply.status(500).send({ detail: 'A server error occurred.' });
  };
}
