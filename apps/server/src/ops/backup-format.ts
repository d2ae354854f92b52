import type pg from 'pg';

/**
 * A Paddock backup (docs/decisions/0074): one gzip file. Its first gzip member is one line of
 * JSON, the header below; the second holds every table's `COPY … TO STDOUT` text, one after the
 * other in the header's order (parents before the tables that point at them), each exactly
 * `bytes` long.
 */
export const BACKUP_FORMAT = 'paddock-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const BACKUP_SUFFIX = '.backup.gz';

export type BackupTable = {
  /** Schema-qualified, quoted: `"public"."users"`. */
  name: string;
  columns: string[];
  rows: number;
  bytes: number;
  /** sha256 of the table's COPY text, in primary-key order. */
  sha256: string;
};

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  created_at: string;
  /** What made it: `manual` (CLI or back office) or `nightly` (the scheduled job). */
  kind: 'manual' | 'nightly';
  /** The applied migrations' hashes, oldest first: the schema the rows belong to. */
  migrations: string[];
  tables: BackupTable[];
  sequences: { name: string; last_value: string | null }[];
};

/**
 * Session settings under which COPY text means the same thing on the way out and back in,
 * whatever the server's or the role's defaults (time zone, date style, float digits).
 */
export async function setCopySession(client: pg.ClientBase) {
  await client.query(
    `set local timezone = 'UTC'; set local datestyle = 'ISO, YMD';
     set local intervalstyle = 'postgres'; set local extra_float_digits = 3;
     set local bytea_output = 'hex'; set local client_encoding = 'UTF8'`,
  );
}

export class BackupRefused extends Error {}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
