import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from './changes';
import type { AuthUser, SessionClaims } from './auth-user';

/** Bound on remembered sessions; past it the least recently used are read again. */
const SESSIONS = 10_000;

type Entry = { user: AuthUser; claims: SessionClaims };

/**
 * Live sessions answered from memory (decision 0036), keyed by the token (whose claims carry the
 * session version). An entry goes as soon as any instance announces a change of its user's
 * sessions or rights, or a logout of its jti (triggers of migration 0017 say so on every write
 * path); all go when the change feed loses its connection. A remembered answer is only given
 * after the feed's barrier: a logout committed before the request is always heard first.
 */
export class SessionCache {
  private readonly entries = new LRUCache<string, Entry>({
    max: SESSIONS,
    dispose: (entry, token) => this.unindex(entry, token),
  });
  private readonly byUser = new Map<number, Set<string>>();
  private readonly byJti = new Map<string, string>();
  /** Moves on with every announcement: a read that saw it move may be stale, and is not kept. */
  private generation = 0;

  /** `feed` says what to forget; each request's barrier (`heard`) is the caller's. */
  constructor(private readonly feed: ChangeFeed) {
    feed.subscribeCache((message) => this.forget(message));
  }

  /** The session's user when remembered and nothing was announced since; null to read it. */
  async get(token: string, heard: () => Promise<boolean>): Promise<Entry | null> {
    if (this.entries.size === 0 || !this.entries.has(token)) return null;
    if (!(await heard())) return null;
    return this.entries.get(token) ?? null;
  }

  /** The generation to pass to `set` for a read about to start. */
  mark(): number {
    return this.generation;
  }

  set(token: string, entry: Entry, markedAt: number) {
    if (markedAt !== this.generation || !this.feed.connected) return;
    this.entries.set(token, entry);
    let tokens = this.byUser.get(entry.user.id);
    if (!tokens) this.byUser.set(entry.user.id, (tokens = new Set()));
    tokens.add(token);
    this.byJti.set(entry.claims.jti, token);
  }

  private forget(message: string | null) {
    if (message === null) {
      this.generation++;
      this.entries.clear();
    } else if (message.startsWith('u:')) {
      this.generation++;
      for (const token of this.byUser.get(Number(message.slice(2))) ?? []) {
        this.entries.delete(token);
      }
    } else if (message.startsWith('j:')) {
      this.generation++;
      const token = this.byJti.get(message.slice(2));
      if (token) this.entries.delete(token);
    }
  }

  private unindex(entry: Entry, token: string) {
    const tokens = this.byUser.get(entry.user.id);
    tokens?.delete(token);
    if (tokens?.size === 0) this.byUser.delete(entry.user.id);
    if (this.byJti.get(entry.claims.jti) === token) this.byJti.delete(entry.claims.jti);
  }
}
