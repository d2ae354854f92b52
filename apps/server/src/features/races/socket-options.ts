// Its own module so that `Deps` (deps.ts) can name the launcher socket timing without importing
// the launcher socket, which imports `Deps` (decision 0086: no import circles).
export type SocketOptions = {
  /** How often each socket is pinged; one missed pong closes it. */
  pingMs: number;
  /** A socket with more than this queued for sending is a slow consumer and is dropped. */
  maxBufferedBytes: number;
};
export const SOCKET_DEFAULTS: SocketOptions = { pingMs: 30_000, maxBufferedBytes: 1 << 20 };
