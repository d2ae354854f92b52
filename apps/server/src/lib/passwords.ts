import { hash, verify } from '@node-rs/argon2';
import crypto from 'node:crypto';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum profile).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A random password of `length` characters, for accounts created before the user sets one. */
export function randomPassword(length = 20): string {
  return crypto.randomBytes(length).toString('base64url').slice(0, length);
}
