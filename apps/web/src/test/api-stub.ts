import { vi } from 'vitest';

export type StubRequest = {
  method: string;
  path: string;
  search: URLSearchParams;
  body: unknown;
  authorization: string | null;
};
export type StubAnswer = { status?: number; body?: unknown };
type Handler = (request: StubRequest) => StubAnswer | Promise<StubAnswer>;

/**
 * Stands in for the network (the browser's fetch), keyed by "METHOD /api/path".
 * Unmatched calls answer 404 like the server does. Returns the list of calls made.
 */
export function stubApi(handlers: Record<string, Handler | StubAnswer> = {}) {
  const calls: StubRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const request: StubRequest = {
        method: init.method ?? 'GET',
        path: url.pathname,
        search: url.searchParams,
        body:
          typeof init.body === 'string'
            ? JSON.parse(init.body)
            : init.body instanceof FormData
              ? init.body
              : undefined,
        authorization: new Headers(init.headers).get('Authorization'),
      };
      calls.push(request);
      const handler = handlers[`${request.method} ${request.path}`];
      const answer: StubAnswer =
        typeof handler === 'function'
          ? await handler(request)
          : (handler ?? { status: 404, body: { detail: 'Not found.' } });
      const status = answer.status ?? 200;
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      return new Response(status === 204 ? null : text, { status });
    }),
  );
  return calls;
}

/** An unsigned JWT carrying `{user_id, exp}`: enough for the client, which never verifies. */
export function fakeToken(userId: number, expiresInSeconds = 3600): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${encode({ alg: 'HS256' })}.${encode({ user_id: userId, exp })}.signature`;
}
