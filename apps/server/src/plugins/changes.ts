import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from './payments/charge-card';

/**
 * What changed: boards (a board or its laps), laps (per track), settings and prices, pages,
 * screens (a reload order: one screen's id, or null for all), reservations (per seat), events
 * (a race event, by id), parties (per location) and rigs (a seat's rig joined, left or changed
 * its load state, per seat: the rig map, decision 0127) and timing (an event's live tower, by
 * event id: decision 0122).
 */
export const TOPICS = [
  'boards',
  'laps',
  'settings',
  'pages',
  'screens',
  'reservations',
  'events',
  'parties',
  'rigs',
  'timing',
] as const;
export type Topic = (typeof TOPICS)[number];
/** Topics anyone may follow; the rest need staff rights. */
export const PUBLIC_TOPICS: readonly Topic[] = [
  'boards',
  'laps',
  'settings',
  'pages',
  'screens',
  // An event's live timing tower (decision 0122): what the room's wall and spectators see.
  'timing',
];

export type Change = { seq: number; topic: Topic; id: number | null };

const CHANNEL = 'paddock_changes';
/**
 * Messages that are not changes of stored state (race host signals, peer messages): relayed to
 * every instance on the same LISTEN connection as the changes, so a listener hears both in
 * commit order (decision 0025). Not stored: there is nothing to replay.
 */
const RELAY_CHANNEL = 'paddock_relay';
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; a relay message stays well below it. */
export const RELAY_MAX_BYTES = 7000;

export type Relay = { topic: Topic; id: number; data: unknown };

/**
 * What the in-memory caches must forget, announced by triggers (migration 0019_cache_notify):
 * `u:<user id>`, `j:<jti>`, `s:<seat id>`, `r` (race sessions or results, migration 0052) or `*`.
 */
const CACHE_CHANNEL = 'paddock_cache';

/** Announces a relay message in the caller's transaction (heard after commit, on every instance). */
export async function publishRelay(db: Queryable, relay: Relay) {
  const payload = JSON.stringify(relay);
  if (Buffer.byteLength(payload) > RELAY_MAX_BYTES) throw new Error('relay message too large');
  await db.execute(sql`select pg_notify(${RELAY_CHANNEL}, ${payload})`);
}
/** Changes kept for clients that reconnect (Last-Event-ID). */
const REPLAY_ROWS = 5000;

/**
 * The NOTIFY of a stored change whose number is the SQL `seq`: for a statement that stores the
 * change itself (a booking's single statement), so it is announced exactly as publishChange does.
 */
export function changeNotice(seq: SQL, topic: Topic, id: SQL | number | null): SQL {
  const ref = typeof id === 'object' && id !== null ? id : sql`${id}::int`;
  return sql`pg_notify(${CHANNEL}, json_build_object('seq', ${seq}, 'topic', ${topic}::text, 'id', ${ref})::text)`;
}

/**
 * Says that something changed: stored in the replay window and announced with NOTIFY in the
 * caller's transaction, so listeners hear it only once the write commits, on every instance.
 */
export async function publishChange(db: Queryable, topic: Topic, id: number | null = null) {
  await db.execute(sql`
    with added as (
      insert into change_events (topic, ref_id) values (${topic}, ${id}) returning seq
    )
    select ${changeNotice(sql`seq`, topic, id)} from added`);
  await pruneChanges(db);
}

/**
 * Stores a change in the caller's transaction without announcing it: the caller passes it to
 * announceAfterCommit once the transaction has committed (decision 0053).
 */
export async function storeChange(
  db: Queryable,
  topic: Topic,
  id: number | null = null,
): Promise<Change> {
  const result = await db.execute<{ seq: string }>(
    sql`insert into change_events (topic, ref_id) values (${topic}, ${id}) returning seq`,
  );
  return { seq: Number(result.rows[0].seq), topic, id };
}

/**
 * For a single-statement write whose caller announces it after the commit (announceAfterCommit):
 * in its select list, this tells the cache triggers of `reservations` and `waitlist_entries` (0027)
 * not to NOTIFY from inside the statement's own transaction. Only for one autocommit statement:
 * the setting lasts until its transaction ends.
 */
export const ANNOUNCE_AFTER_COMMIT = sql`set_config('paddock.announce', 'after-commit', true)`;

/**
 * Announces changes already stored (their `change_events` rows committed) and cache messages
 * (`s:<seat id>`, …), in a statement of its own after the write's commit (decision 0053).
 * A NOTIFY inside the write's transaction holds PostgreSQL's notify lock until that commit is
 * flushed to disk, so every announcing write waited for the one before it (one booking per WAL
 * flush); a transaction that only notifies writes nothing to flush. The caller answers only
 * after this, so whoever saw the write's answer is also past its announcement. If it fails the
 * write stands (it committed): the error is not the caller's; the answer caches hold an answer for
 * one second at most.
 *
 * Where the app said which change feed listens for `db`'s database (`announceThrough`), the
 * announcement rides on that feed's next barrier query (decision 0063): one round trip that
 * both announces and serves the requests waiting for a barrier. Otherwise, or when the feed is
 * down or its query fails, it goes on `db` (Announcer).
 */
export async function announceAfterCommit(
  db: Queryable,
  notices: { changes?: Change[]; cache?: string[] },
): Promise<void> {
  const messages: [channel: string, payload: string][] = [];
  for (const change of notices.changes ?? []) messages.push([CHANNEL, JSON.stringify(change)]);
  for (const message of new Set(notices.cache ?? [])) messages.push([CACHE_CHANNEL, message]);
  if (messages.length === 0) return;
  const feed = feeds.get(db);
  if (feed && (await feed.announce(messages))) return;
  let announcer = announcers.get(db);
  if (!announcer) announcers.set(db, (announcer = new Announcer(db)));
  await announcer.announce(messages);
}

/** The change feed whose connection carries `db`'s announcements (the app's own, app.ts). */
export function announceThrough(db: Queryable, feed: ChangeFeed) {
  feeds.set(db, feed);
}
const feeds = new WeakMap<Queryable, ChangeFeed>();

/**
 * The announcing statement: NOTIFY each message in order, committed without waiting for the WAL
 * flush (decision 0060). PostgreSQL gives a notifying transaction an xid, so its commit waited
 * for a flush of its own, holding the database-wide notify lock, behind the bookings' flushes
 * (14–34 ms a booking under load). It writes nothing that must survive a crash: the
 * notifications are delivered at commit either way, and a crash loses the queue itself (every
 * listener then forgets its caches).
 */
const NOTIFY_ALL = `select pg_notify(c, p) from (select set_config('synchronous_commit', 'off', true)) as async, unnest($1::text[], $2::text[]) with ordinality as n(c, p, i) order by i`;

/**
 * One announcing statement at a time per pool: what callers ask for while one is on the wire
 * goes together in the next, so a rush of bookings costs a few NOTIFY statements, not one
 * each (decision 0054). Each caller resumes once the statement carrying its messages finished,
 * in the order they asked.
 */
class Announcer {
  private waiting: { messages: [string, string][]; done: () => void }[] = [];
  private busy = false;

  constructor(private readonly db: Queryable) {}

  announce(messages: [string, string][]): Promise<void> {
    return new Promise((done) => {
      this.waiting.push({ messages, done });
      if (!this.busy) void this.drain();
    });
  }

  private async drain() {
    this.busy = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0);
      const all = batch.flatMap((b) => b.messages);
      // NOTIFY_ALL, through drizzle.
      await this.db
        .execute(
          sql`select pg_notify(c, p) from (select set_config('synchronous_commit', 'off', true)) as async, unnest(${sql.param(all.map((m) => m[0]))}::text[], ${sql.param(all.map((m) => m[1]))}::text[]) with ordinality as n(c, p, i) order by i`,
        )
        .catch(() => {
          /* the writes committed; see announceAfterCommit */
        });
      for (const b of batch) b.done();
    }
    this.busy = false;
  }
}
const announcers = new WeakMap<Queryable, Announcer>();

/** Now and then, drops the changes older than the replay window (after a stored change). */
export async function pruneChanges(db: Queryable) {
  if (Math.random() < 0.01)
    await db.execute(
      sql`delete from change_events where seq < (select max(seq) from change_events) - ${REPLAY_ROWS}`,
    );
}

/** Changes after `seq` on `topics`, oldest first (a reconnecting client's catch-up). */
export async function changesSince(db: Queryable, seq: number, topics: readonly Topic[]) {
  const result = await db.execute<{ seq: string; topic: Topic; ref_id: number | null }>(sql`
    select seq, topic, ref_id from change_events
    where seq > ${seq} and topic in (${sql.join(
      topics.map((t) => sql`${t}`),
      sql`, `,
    )})
    order by seq limit ${REPLAY_ROWS}`);
  return result.rows.map((r) => ({ seq: Number(r.seq), topic: r.topic, id: r.ref_id }));
}

/** The listener's reconnect back-off: first try after 250 ms, doubling up to 10 s. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 10_000;
/** A connect that hangs (a database host gone silent) is abandoned and tried again. */
const CONNECT_TIMEOUT_MS = 5000;
export const FEED_APPLICATION_NAME = 'paddock_changes';

type Listener = (change: Change) => void;
type RelayListener = (relay: Relay) => void;
/** A cache message, or `null` when the feed lost or regained its connection (forget all). */
type CacheListener = (message: string | null) => void;

/**
 * One LISTEN connection per API instance, fanning changes out to this instance's subscribers
 * (server-sent event streams, caches). Reconnects by itself after a database restart.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();
  private readonly relayListeners = new Set<RelayListener>();
  private readonly cacheListeners = new Set<CacheListener>();
  /** The LISTEN connection once it listens. */
  private client: pg.Client | null = null;
  /** The connection being opened or listening; another's events are stale. */
  private current: pg.Client | null = null;
  /** The barrier queries: the one on the wire, and the one the requests after it share. */
  private syncing: Promise<boolean> | null = null;
  private nextSync: Promise<boolean> | null = null;
  /** Announcements for the next barrier query; each told whether it went out. */
  private outbox: { messages: [string, string][]; sent: (ok: boolean) => void }[] = [];
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  /** Failed attempts since the connection was last up (the back-off's exponent). */
  private attempts = 0;
  /** When the connection was lost (null while it is up, and before the first start). */
  private downSince: number | null = null;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Named in pg_stat_activity, for whoever looks (and for the tests that end it).
      application_name: FEED_APPLICATION_NAME,
    });
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === RELAY_CHANNEL) {
        try {
          const relay = JSON.parse(message.payload) as Relay;
          for (const listener of this.relayListeners) listener(relay);
        } catch {
          /* a malformed payload is nobody's message */
        }
        return;
      }
      if (message.channel === CACHE_CHANNEL) {
        for (const listener of this.cacheListeners) listener(message.payload);
        return;
      }
      if (message.channel !== CHANNEL) return;
      try {
        const change = JSON.parse(message.payload) as Change;
        for (const listener of this.listeners) listener(change);
      } catch {
        /* a malformed payload is nobody's change */
      }
    });
    this.current = client;
    // Both may come for one loss, and late: only the current connection's first one counts.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      await client.query(`listen ${RELAY_CHANNEL}`);
      await client.query(`listen ${CACHE_CHANNEL}`);
    } catch {
      client.end().catch(() => {});
      this.lost(client);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.attempts = 0;
    this.downSince = null;
    // Whatever was announced while nobody listened is unknown: caches start afresh, and event
    // streams end so their clients resume from the stored changes (Last-Event-ID).
    for (const listener of this.cacheListeners) listener(null);
  }

  /** The LISTEN connection `client` failed or ended: try again, later and later while it fails. */
  private lost(client: pg.Client) {
    if (this.current !== client) return;
    this.current = null;
    if (this.client === client) {
      this.client = null;
      for (const listener of this.cacheListeners) listener(null);
    }
    this.downSince ??= Date.now();
    if (this.stopped || this.retry) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** this.attempts);
    this.attempts += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, delay);
    this.retry.unref();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the LISTEN connection is up (announcements are being heard). */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Milliseconds since the LISTEN connection was lost; 0 while it is up. */
  get downForMs(): number {
    return this.client || this.downSince === null ? 0 : Date.now() - this.downSince;
  }

  subscribeCache(listener: CacheListener): () => void {
    this.cacheListeners.add(listener);
    return () => this.cacheListeners.delete(listener);
  }

  /**
   * Resolves once this instance has heard every announcement committed before the call (true),
   * or false when the feed is not connected (a cache must not answer then). PostgreSQL hands
   * a listening connection its pending notifications before the answer to its next query, so
   * one `select 1` on the LISTEN connection is the barrier; concurrent callers share one. When
   * announcements wait (`announce`), the barrier query is their NOTIFY statement instead: its
   * answer, too, comes after every notification pending before it.
   */
  sync(): Promise<boolean> {
    if (!this.client) {
      // Announcements left for a query that will not be sent go another way.
      for (const o of this.outbox.splice(0)) o.sent(false);
      return Promise.resolve(false);
    }
    if (!this.syncing) {
      this.syncing = this.ping().finally(() => (this.syncing = null));
      return this.syncing;
    }
    // A query already on the wire may have left before the caller's moment: wait for the next.
    if (!this.nextSync) {
      this.nextSync = this.syncing.then(() => {
        this.nextSync = null;
        return this.sync();
      });
    }
    return this.nextSync;
  }

  /**
   * Sends `messages` (NOTIFY channel and payload, in order) with the next barrier query
   * (announceAfterCommit): true once they went out, false when the feed is down or the query
   * failed (then the caller sends them another way).
   */
  announce(messages: [string, string][]): Promise<boolean> {
    if (!this.client) return Promise.resolve(false);
    return new Promise((sent) => {
      this.outbox.push({ messages, sent });
      void this.sync();
    });
  }

  private async ping(): Promise<boolean> {
    const client = this.client;
    // Taken when the query leaves: whatever is announced later waits for the next one.
    const outbox = this.outbox.splice(0);
    if (!client) {
      for (const o of outbox) o.sent(false);
      return false;
    }
    try {
      if (outbox.length === 0) await client.query('select 1');
      else {
        const all = outbox.flatMap((o) => o.messages);
        // Named: the connection parses it once.
        await client.query({
          name: 'paddock_notify_all',
          text: NOTIFY_ALL,
          values: [all.map((m) => m[0]), all.map((m) => m[1])],
        });
      }
      for (const o of outbox) o.sent(true);
      return this.client === client;
    } catch {
      for (const o of outbox) o.sent(false);
      return false;
    }
  }

  subscribeRelay(listener: RelayListener): () => void {
    this.relayListeners.add(listener);
    return () => this.relayListeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.current;
    this.client = null;
    this.current = null;
    await client?.end().catch(() => {});
  }
}
