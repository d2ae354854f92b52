import type pg from 'pg';
import { quoteIdent } from './backup-format';

export type TableInfo = {
  name: string;
  columns: string[];
  /** The ORDER BY that makes a table's COPY text the same on every server (byte order). */
  orderBy: string;
};

/** Schemas that hold Paddock's rows; drizzle's own bookkeeping is recorded, not copied. */
const SKIPPED_SCHEMAS = `('pg_catalog', 'information_schema', 'drizzle', 'pg_toast')`;

/**
 * Tables no backup holds: `app_secrets` is the session-signing key, with which anyone holding a
 * copy could sign a superuser's session (issue 40). A restored database has none, so the first
 * instance to start on it makes a new one and everyone signs in again (decision 0114).
 */
export const NOT_BACKED_UP = ['public.app_secrets'];

/**
 * Every table with its stored columns (generated ones are computed again on load), parents
 * before the tables whose foreign keys point at them, so a load in this order never breaks a
 * constraint and needs no superuser to switch constraint checks off.
 */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{
    oid: number;
    name: string;
    columns: string[];
    collatable: boolean[];
    pk: string[] | null;
  }>(
    `select c.oid::int as oid,
            format('%I.%I', n.nspname, c.relname) as name,
            array_agg(a.attname::text order by a.attnum) as columns,
            array_agg(a.attcollation <> 0 order by a.attnum) as collatable,
            (select array_agg(pa.attname::text order by k.ord)
               from pg_index i
               cross join unnest(i.indkey) with ordinality k(attnum, ord)
               join pg_attribute pa on pa.attrelid = i.indrelid and pa.attnum = k.attnum
              where i.indrelid = c.oid and i.indisprimary) as pk
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                          and a.attgenerated = ''
      where c.relkind = 'r' and n.nspname not in ${SKIPPED_SCHEMAS}
        and n.nspname not like 'pg_temp%'
        and format('%I.%I', n.nspname, c.relname) <> all ($1::text[])
      group by c.oid, n.nspname, c.relname
      order by n.nspname, c.relname`,
    [NOT_BACKED_UP],
  );
  const { rows: fks } = await client.query<{ child: number; parent: number }>(
    `select conrelid::int as child, confrelid::int as parent from pg_constraint
      where contype = 'f' and conrelid <> confrelid`,
  );
  const byOid = new Map(rows.map((r) => [r.oid, r]));
  const parents = new Map<number, Set<number>>();
  for (const fk of fks) {
    if (!byOid.has(fk.child) || !byOid.has(fk.parent)) continue;
    if (!parents.has(fk.child)) parents.set(fk.child, new Set());
    parents.get(fk.child)!.add(fk.parent);
  }
  const ordered: number[] = [];
  const state = new Map<number, 'visiting' | 'done'>();
  const visit = (oid: number, path: string[]) => {
    if (state.get(oid) === 'done') return;
    if (state.get(oid) === 'visiting')
      throw new Error(`Foreign keys form a cycle: ${[...path, byOid.get(oid)!.name].join(' → ')}`);
    state.set(oid, 'visiting');
    for (const parent of parents.get(oid) ?? []) visit(parent, [...path, byOid.get(oid)!.name]);
    state.set(oid, 'done');
    ordered.push(oid);
  };
  for (const row of rows) visit(row.oid, []);
  return ordered.map((oid) => {
    const row = byOid.get(oid)!;
    const collatable = new Map(row.columns.map((c, i) => [c, row.collatable[i]]));
    const orderBy = row.pk
      ? row.pk.map((c) => quoteIdent(c) + (collatable.get(c) ? ' collate "C"' : '')).join(', ')
      : `t::text collate "C"`;
    return { name: row.name, columns: row.columns, orderBy };
  });
}

/** The COPY that writes one table's rows in a fixed order. */
export function copyOutSql(table: { name: string; columns: string[]; orderBy: string }) {
  const cols = table.columns.map(quoteIdent).join(', ');
  return `copy (select ${cols} from ${table.name} t order by ${table.orderBy}) to stdout`;
}

/** The hashes of the migrations applied to this database, oldest first ([] when none). */
export async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const { rows: exists } = await client.query(
    `select 1 from pg_tables where schemaname = 'drizzle' and tablename = '__drizzle_migrations'`,
  );
  if (exists.length === 0) return [];
  const { rows } = await client.query<{ hash: string }>(
    'select hash from drizzle.__drizzle_migrations order by created_at, id',
  );
  return rows.map((r) => r.hash);
}
