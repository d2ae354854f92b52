import type pg from 'pg';

type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * Drops the indexes of `tables` that back no constraint (primary keys and unique constraints
 * stay, and keep checking every row) and answers their definitions, for `createIndexes` once the
 * rows are in: loading millions of rows with every index kept up to date row by row costs
 * several times what building each index once does (the chain seed, decision 0106; a restore of
 * the full chain, issue 33). Inside a transaction, a rollback brings the indexes back.
 */
/** `tables`: names as `laps` (the current schema's) or `public.laps` (a backup's). */
export async function dropSecondaryIndexes(client: Queryable, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class t on t.oid = i.indrelid
     join pg_namespace n on n.oid = t.relnamespace
     where (format('%I.%I', n.nspname, t.relname) = any($1)
            or (n.nspname = current_schema() and t.relname = any($1)))
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const r of rows) await client.query(`drop index ${r.name}`);
  return rows.map((r) => r.def);
}

/**
 * Builds the indexes `dropSecondaryIndexes` answered, with the memory a bulk build wants, then
 * gives the connection its own setting back (a pooled one goes on serving requests). In a
 * transaction that fails, its rollback gives it back.
 */
export async function createIndexes(client: Queryable, definitions: string[]) {
  if (definitions.length === 0) return;
  const { rows } = await client.query<{ own: string }>(
    `select current_setting('maintenance_work_mem') as own`,
  );
  await client.query(`set maintenance_work_mem = '512MB'`);
  try {
    for (const def of definitions) await client.query(def);
  } finally {
    await client
      .query(`select set_config('maintenance_work_mem', $1, false)`, [rows[0].own])
      .catch(() => {});
  }
}
