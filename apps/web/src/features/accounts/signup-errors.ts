import { ApiError } from '../../lib/api-client';
import { UNEXPECTED_ERROR } from '../../lib/error-message';
import type { AlertVariant } from '../../lib/alerts';

export const REGISTRATION_FAILED = 'Registration failed, please check details and try agian';

export function accountExistsMessage(email: string) {
  return `An account with ${email} already exists. We've sent a login link to that email address, or you can log in.`;
}

function messages(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * Spec §8 signup: an existing account is an info message (10 s) — the server has e-mailed a
 * login link; other username errors are danger alerts; any other 400 is the registration
 * failure text; anything else the message or the unexpected-error text.
 */
export function signupFailure(
  error: unknown,
  email: string,
): { message: string; variant: AlertVariant; timeoutMs?: number } {
  if (error instanceof ApiError && error.status === 400) {
    const body = (error.body ?? {}) as Record<string, unknown>;
    const username = [...messages(body.username), ...messages(body.email)];
    if (username.some((m) => /already exists/i.test(m))) {
      return { message: accountExistsMessage(email), variant: 'info', timeoutMs: 10_000 };
    }
    if (username.length) return { message: username.join(' '), variant: 'danger' };
    return { message: REGISTRATION_FAILED, variant: 'danger' };
  }
  if (error instanceof ApiError) {
    const detail = (error.body as { detail?: unknown } | null)?.detail;
    return { message: typeof detail === 'string' ? detail : UNEXPECTED_ERROR, variant: 'danger' };
  }
  return { message: UNEXPECTED_ERROR, variant: 'danger' };
}
