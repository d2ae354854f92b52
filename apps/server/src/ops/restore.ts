import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { runMigrations, type Database } from '../db/client';
import { createIndexes, dropSecondaryIndexes } from '../db/bulk-load-indexes';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupRefused,
  quoteIdent,
  setCopySession,
  type BackupHeader,
} from './backup-format';
import { ByteReader } from './byte-reader';
import { appliedMigrations, copyOutSql, listTables } from './database-tables';
import { knownMigrations, migrateTo } from './migration-steps';

const HEADER_MAX_BYTES = 16 * 1024 * 1024;

/** The header of a backup file, checked to be one of ours. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  const source = fs.createReadStream(file).pipe(zlib.createGunzip());
  try {
    return parseHeader(await new ByteReader(source).line(HEADER_MAX_BYTES));
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(`${file} is not a Paddock backup (${(error as Error).message}).`);
  } finally {
    source.destroy();
  }
}

function parseHeader(line: string): BackupHeader {
  const header = JSON.parse(line) as BackupHeader;
  if (header.format !== BACKUP_FORMAT) throw new BackupRefused('This is not a Paddock backup.');
  if (header.format_version !== BACKUP_FORMAT_VERSION)
    throw new BackupRefused(
      `This backup has format version ${header.format_version}; this Paddock reads version ${BACKUP_FORMAT_VERSION}.`,
    );
  return header;
}

export type RestoreResult = { tables: number; rows: number; migratedForward: number };

/**
 * Reads the whole file once before anything is written: every table's bytes against the
 * header's length and checksum, and nothing after the last. A file cut short, damaged in
 * transit or edited is refused in a sentence and the database is left as it was (issue 40).
 */
async function verifyBackupFile(file: string, header: BackupHeader) {
  const source = fs.createReadStream(file).pipe(zlib.createGunzip());
  const reader = new ByteReader(source);
  try {
    await reader.line(HEADER_MAX_BYTES);
    for (const table of header.tables) {
      const hash = crypto.createHash('sha256');
      for await (const chunk of reader.take(table.bytes)) hash.update(chunk as Buffer);
      if (hash.digest('hex') !== table.sha256)
        throw new BackupRefused(
          `${file} is damaged: table ${table.name} does not match its checksum. Nothing was restored.`,
        );
    }
    if (!(await reader.atEnd()))
      throw new BackupRefused(`${file} has data past its tables. Nothing was restored.`);
  } catch (error) {
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(
      `${file} is damaged or cut short (${(error as Error).message}). Nothing was restored.`,
    );
  } finally {
    source.destroy();
  }
}

/**
 * Loads a backup into an empty database, then migrates it to this build's schema.
 *
 * The database must be empty: either never migrated (it is then migrated to the backup's
 * schema first) or at the backup's migration with no rows. A backup from a newer or different
 * Paddock, or a database at another migration, is refused before anything is written. The rows
 * are loaded in one transaction and checked against the header's checksums before it commits:
 * a restore either completes or leaves the database as it found it.
 */
export async function restoreBackup(database: Database, file: string): Promise<RestoreResult> {
  const source = fs.createReadStream(file).pipe(zlib.createGunzip());
  const reader = new ByteReader(source);
  let header: BackupHeader;
  try {
    header = parseHeader(await reader.line(HEADER_MAX_BYTES));
  } catch (error) {
    source.destroy();
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(`${file} is not a Paddock backup (${(error as Error).message}).`);
  }
  try {
    await verifyBackupFile(file, header);
    await prepareSchema(database, header);
    const client = await database.pool.connect();
    let rows = 0;
    try {
      await client.query('begin');
      await setCopySession(client);
      const tables = new Map((await listTables(client)).map((t) => [t.name, t]));
      for (const table of header.tables) {
        const here = tables.get(table.name);
        if (!here || here.columns.join() !== table.columns.join())
          throw new BackupRefused(`Table ${table.name} differs from the backup's.`);
        const { rows: found } = await client.query(`select 1 from ${table.name} limit 1`);
        if (found.length > 0)
          throw new BackupRefused(
            `The database is not empty (${table.name} has rows): restore into an empty database.`,
          );
      }
      // The indexes that back no constraint are built once the rows are in, not row by row
      // (a full chain's restore, issue 33); the rollback of a failed restore brings them back.
      const dropped = await dropSecondaryIndexes(
        client,
        header.tables.map((t) => t.name),
      );
      for (const table of header.tables) {
        // Rows come back as they were: triggers that derive rows (report totals, a seat's race
        // event) stay off while loading, as what they would write is in the backup already.
        await client.query(`alter table ${table.name} disable trigger user`);
        const cols = table.columns.map(quoteIdent).join(', ');
        const copy = client.query(copyFrom(`copy ${table.name} (${cols}) from stdin`));
        await pipeline(reader.take(table.bytes), copy);
        rows += table.rows;
      }
      if (!(await reader.atEnd())) throw new BackupRefused('The backup has data past its tables.');
      await createIndexes(client, dropped);
      for (const table of header.tables) {
        const copy = client.query(copyTo(copyOutSql(tables.get(table.name)!)));
        const hash = crypto.createHash('sha256');
        for await (const chunk of copy) hash.update(chunk as Buffer);
        if (hash.digest('hex') !== table.sha256)
          throw new BackupRefused(`Table ${table.name} did not load as backed up (checksum).`);
        await client.query(`alter table ${table.name} enable trigger user`);
      }
      for (const seq of header.sequences)
        if (seq.last_value !== null)
          await client.query('select setval($1::regclass, $2::bigint, true)', [
            seq.name,
            seq.last_value,
          ]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    const before = header.migrations.length;
    await runMigrations(database);
    return {
      tables: header.tables.length,
      rows,
      migratedForward: knownMigrations().length - before,
    };
  } finally {
    source.destroy();
  }
}

/** Brings an empty database to the backup's schema, or refuses. */
async function prepareSchema(database: Database, header: BackupHeader) {
  const known = knownMigrations();
  const theirs = header.migrations;
  const prefix = theirs.length <= known.length && theirs.every((hash, i) => known[i] === hash);
  if (!prefix)
    throw new BackupRefused(
      `This backup was made by a newer or different Paddock (database migration ${theirs.length}, ` +
        `this one knows ${known.length}): restore it with the Paddock version that made it.`,
    );
  const client = await database.pool.connect();
  let applied: string[];
  let tableCount: number;
  try {
    applied = await appliedMigrations(client);
    tableCount = (await listTables(client)).length;
  } finally {
    client.release();
  }
  if (applied.length === 0 && tableCount === 0) {
    await migrateTo(database, theirs.length);
    return;
  }
  const same = applied.length === theirs.length && applied.every((h, i) => h === theirs[i]);
  if (!same)
    throw new BackupRefused(
      `The database is at migration ${applied.length} and the backup at ${theirs.length}: ` +
        `restore into an empty database (a new DATA_DIR, or a new database for DATABASE_URL).`,
    );
}
