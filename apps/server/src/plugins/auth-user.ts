// Who a request is and what its session token says, in a module of their own: the session cache
// remembers both and auth.ts uses the cache, so they cannot live in auth.ts (decision 0086).
export type AuthUser = {
  id: number;
  isStaff: boolean;
  isSuperuser: boolean;
  permissions: Set<string>;
};

/**
 * What a valid session token says: whose it is, the session version, its id and end; for a
 * session opened by a login link, until when it may set a password without the current one
 * (seconds since the epoch, decision 0113).
 */
export type SessionClaims = {
  userId: number;
  version: number;
  jti: string;
  exp: number;
  passwordResetUntil?: number;
};
