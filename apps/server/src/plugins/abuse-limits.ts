import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { HttpError } from './errors';

/** One limit: at most `max` hits per `seconds` under `key` (e.g. `login:acct:ann@x.com`). */
export type Limit = { key: string; max: number; seconds: number };

export class TooManyRequests extends HttpError {
  constructor(public readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
      'throttled',
    );
  }
}

/** Rows of windows that ended are dropped now and then, by whichever instance draws the lot. */
const PRUNE_EVERY = 200;

/**
 * Fixed-window counters in PostgreSQL, so a limit holds across every API instance (a limit kept
 * in one process's memory is only a limit per instance). One statement per hit: it starts a new
 * window when the last one ended, else counts one more.
 */
export class AbuseLimits {
  constructor(private readonly db: Db) {}

  /** Counts one hit; true while the count stays within `max`. */
  async hit(limit: Limit): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    if (Math.random() * PRUNE_EVERY < 1)
      await this.db.execute(sql`delete from rate_limit_counters where reset_at < now()`);
    const result = await this.db.execute<{ hits: number; wait: number }>(sql`
      insert into rate_limit_counters (key, hits, reset_at)
      values (${limit.key}, 1, now() + make_interval(secs => ${limit.seconds}))
      on conflict (key) do update set
        hits = case when rate_limit_counters.reset_at <= now() then 1
                    else rate_limit_counters.hits + 1 end,
        reset_at = case when rate_limit_counters.reset_at <= now() then excluded.reset_at
                        else rate_limit_counters.reset_at end
      returning hits, ceil(extract(epoch from reset_at - now()))::int as wait`);
    const { hits, wait } = result.rows[0];
    return { allowed: hits <= limit.max, retryAfterSeconds: Math.max(1, wait) };
  }

  /** Whether `key` is already past `max` in its current window, without counting a hit. */
  async exceeded(limit: Limit): Promise<{ exceeded: boolean; retryAfterSeconds: number }> {
    const result = await this.db.execute<{ hits: number; wait: number }>(sql`
      select hits, ceil(extract(epoch from reset_at - now()))::int as wait
      from rate_limit_counters where key = ${limit.key} and reset_at > now()`);
    const row = result.rows[0];
    return {
      exceeded: row !== undefined && row.hits >= limit.max,
      retryAfterSeconds: Math.max(1, row?.wait ?? 1),
    };
  }

  /** Counts a hit on every limit; a 429 when any of them is past its maximum. */
  async enforce(...limits: Limit[]): Promise<void> {
    const results = await Promise.all(limits.map((l) => this.hit(l)));
    const over = results.filter((r) => !r.allowed);
    if (over.length) throw new TooManyRequests(Math.max(...over.map((r) => r.retryAfterSeconds)));
  }
}
