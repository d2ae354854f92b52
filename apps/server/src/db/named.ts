import crypto from 'node:crypto';
import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

// A statement built with drizzle's `sql` but sent as a named prepared statement (decision 0062,
// as the booking's in 0060): each pool connection parses it once, and PostgreSQL soon keeps a
// generic plan instead of planning every call (0.2–0.4 ms each for the checkout's statements).
// The name is derived from the SQL text, so each variant of a statement (a fragment left out)
// is a statement of its own and the same text always has the same name.

const dialect = new PgDialect({ casing: 'snake_case' });
const names = new Map<string, string>();

/** Runs `query` on the pool as a named prepared statement; its rows as PostgreSQL sent them. */
export async function executeNamed<Row extends object>(db: Db, query: SQL): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = names.get(text);
  if (name === undefined) {
    name = `paddock_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  const pool = (db as Db & { $client: pg.Pool }).$client;
  const result = await pool.query<Row>({ name, text, values: params as unknown[] });
  return result.rows;
}
