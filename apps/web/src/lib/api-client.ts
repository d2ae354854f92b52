import { getSession, setToken } from './auth-store';

/** Sent by the server when a call (own password change) ended the caller's other sessions. */
const RENEWED_SESSION_HEADER = 'x-session-token';

/** A non-2xx answer: the status, the parsed JSON body (null when there was none) and the raw text. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: unknown,
    public readonly text: string,
  ) {
    super(text.trim() || `Request failed with status ${status}`);
    this.name = 'ApiError';
  }

  /** The server's `code` for 401s (`token_not_valid`) and payment failures. */
  get code(): string | undefined {
    const body = this.body as { code?: unknown } | null;
    return typeof body?.code === 'string' ? body.code : undefined;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type ApiOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';
  body?: unknown;
  query?: Record<string, QueryValue | QueryValue[]>;
  /** Send the session's Bearer token (default). Forgot-password goes without it (spec §7). */
  auth?: boolean;
  signal?: AbortSignal;
  /** `text` returns the body as it came (an iCalendar file) instead of parsing JSON; `blob`
   *  returns its bytes (a backup to save). */
  responseType?: 'json' | 'text' | 'blob';
};

type TokenInvalidHandler = () => void;
let onTokenInvalid: TokenInvalidHandler | null = null;

/**
 * The app registers what happens when the server rejects the session's token
 * (spec §8: go to login with errorCode tokenExpired). Returns the unregister function.
 */
export function setTokenInvalidHandler(handler: TokenInvalidHandler | null): () => void {
  onTokenInvalid = handler;
  return () => {
    if (onTokenInvalid === handler) onTokenInvalid = null;
  };
}

/** Tells the app the session is no longer accepted (a 401 while loading the user). */
export function notifyTokenInvalid() {
  onTokenInvalid?.();
}

export const API_BASE = '/api';

export function apiUrl(path: string, query: ApiOptions['query'] = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== null && v !== undefined) search.append(key, String(v));
  }
  const qs = search.toString();
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${qs ? `?${qs}` : ''}`;
}

/** JSON (or FormData) in, JSON out, under /api; throws ApiError for any non-2xx answer. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = 'GET', body, query, auth = true, signal, responseType = 'json' } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A FormData body (a file upload) goes as multipart; the browser writes its boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = auth ? getSession()?.token : undefined;
  if (token) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(apiUrl(path, query), {
    method,
    headers,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    signal,
  });
  const renewed = token ? response.headers.get(RENEWED_SESSION_HEADER) : null;
  if (renewed) setToken(renewed);
  if (response.ok && responseType === 'blob') return (await response.blob()) as T;
  const text = await response.text();
  if (response.ok && responseType === 'text') return text as T;
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, parsed, parsed === null ? text : '');
    if (token && response.status === 401 && error.code === 'token_not_valid') onTokenInvalid?.();
    throw error;
  }
  return parsed as T;
}
