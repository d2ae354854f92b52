import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Headers = Readonly<Record<string, string>>;

/**
 * Helmet's headers, worked out once. `@fastify/helmet` builds Helmet's middleware and parses the
 * CSP directives again on every request (a sixth of a cached board answer's CPU); our headers
 * do not change per request (no nonces), so they are captured at start and set as they are.
 */
export function securityHeaders(options: HelmetOptions): Headers {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: () => {},
  };
  helmet(options)(
    {} as IncomingMessage,
    capture as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return Object.freeze(headers);
}

/**
 * The headers of an API answer that is data, not a document (OWASP's REST Security Cheat Sheet):
 * nothing runs or loads in it and nothing frames it, no MIME sniffing, HTTPS only, no reading it
 * from another site. The rest of the document set (the app's CSP, COOP, Origin-Agent-Cluster,
 * Referrer-Policy, DNS prefetch, IE's download and XSS switches, Flash policies) governs what a
 * page does and has no effect on a JSON body; it was ~700 bytes on every answer (decision 0058).
 */
export function apiSecurityHeaders(document: Headers): Headers {
  const headers: Record<string, string> = {
    // Tokens, accounts and bookings must not stay in a browser's or a proxy's cache; a route
    // whose answer is deliberately cacheable (an immutable image) sets its own (decision 0070).
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': document['cross-origin-resource-policy'] ?? 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  const hsts = document['strict-transport-security'];
  if (hsts) headers['strict-transport-security'] = hsts;
  return Object.freeze(headers);
}

/** `/api` and below, except the API's documentation pages (HTML, scripts, styles). */
export function isApiUrl(url: string): boolean {
  if (!url.startsWith('/api')) return false;
  const next = url.charCodeAt(4);
  // '/', '?' or the end: '/apiary' is a page of the app.
  if (!(Number.isNaN(next) || next === 47 || next === 63)) return false;
  return !url.startsWith('/api/docs');
}

/**
 * Every answer carries its set: the document set (Helmet's, from `options`) on the app's pages,
 * assets and anything else outside the API; the short API set on the API's answers. An API
 * answer that turns out to be HTML (a printable receipt) gets the document set instead.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: HelmetOptions,
  /** Origins the app's pages may frame besides the fixed ones (a venue setting's page). */
  extraFrameOrigins: () => readonly string[] = () => [],
  /** Websites that may frame the booking widget's pages (`/widget/…`), and only those pages. */
  widgetAncestors: () => readonly string[] = () => [],
): (url: string) => Headers {
  const fixed = securityHeaders(options);
  const api = apiSecurityHeaders(fixed);
  // Worked out again only when the extra origins change, not per request.
  let extraKey = '';
  let document = fixed;
  const documentHeaders = () => {
    const extra = extraFrameOrigins();
    const key = extra.join(' ');
    if (key !== extraKey) {
      extraKey = key;
      document = key ? withFrameOrigins(options, extra) : fixed;
    }
    return document;
  };
  let widgetKey: string | null = null;
  let widget = fixed;
  const widgetHeaders = () => {
    const ancestors = widgetAncestors();
    const key = ancestors.join(' ');
    if (key !== widgetKey) {
      widgetKey = key;
      widget = framedBy(options, ancestors);
    }
    return widget;
  };
  const headersFor = (url: string) =>
    isApiUrl(url) ? api : isWidgetUrl(url) ? widgetHeaders() : documentHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headersFor(request.url));
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && isApiUrl(request.url))
      reply.headers(documentHeaders());
    done(null, payload);
  });
  // For the answers the router gives before any hook runs (plugins/errors.ts).
  return headersFor;
}

/** The booking widget's page (decision 0123): the one page other websites may frame. */
export function isWidgetUrl(url: string): boolean {
  return url.startsWith('/widget/');
}

/**
 * The document set with `frame-ancestors` of this site and `ancestors`, and no X-Frame-Options
 * (its SAMEORIGIN would still refuse them; CSP's frame-ancestors supersedes it in browsers).
 */
function framedBy(options: HelmetOptions, ancestors: readonly string[]): Headers {
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? (csp.directives ?? {}) : {};
  return securityHeaders({
    ...options,
    xFrameOptions: false,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { ...directives, frameAncestors: ["'self'", ...ancestors] },
    },
  } as HelmetOptions);
}

function withFrameOrigins(options: HelmetOptions, extra: readonly string[]): Headers {
  const csp = options.contentSecurityPolicy;
  if (!csp || typeof csp !== 'object' || !csp.directives) return securityHeaders(options);
  const frameSrc = (csp.directives.frameSrc ?? ["'self'"]) as string[];
  return securityHeaders({
    ...options,
    contentSecurityPolicy: {
      ...csp,
      directives: { ...csp.directives, frameSrc: [...frameSrc, ...extra] },
    },
  });
}
