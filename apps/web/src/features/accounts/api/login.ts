import type { TokenRequest, TokenResponse } from '@paddock/contract/accounts';
import { api } from '../../../lib/api-client';

/** `POST /api/auth/token`: username may also be the e-mail (DESIGN §3). */
export function login(body: TokenRequest) {
  return api<TokenResponse>('/auth/token', { method: 'POST', body, auth: false });
}

/** `POST /api/auth/login_link`: trades a one-time login link token for a session. */
export function exchangeLoginLink(token: string) {
  return api<TokenResponse>('/auth/login_link', { method: 'POST', body: { token }, auth: false });
}
