import type { SignupRequest, TokenResponse } from '@paddock/contract/accounts';
import { api } from '../../../lib/api-client';

/** `POST /api/users`: signup step 0; answers with a session for the new account. */
export function signup(body: SignupRequest) {
  return api<TokenResponse>('/users', { method: 'POST', body, auth: false });
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#$%^&*-_=+';

/** Spec §3: the account starts with a random 20-character password until step 1 sets one. */
export function randomPassword(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint32Array(length));
  return Array.from(bytes, (b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join('');
}
