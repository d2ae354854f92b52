import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BACKUP_SUFFIX,
  setCopySession,
  type BackupHeader,
  type BackupTable,
} from './backup-format';
import { appliedMigrations, copyOutSql, listTables } from './database-tables';

/** Where backups go: `DATA_DIR/backups`, with DATABASE_URL too. */
export const backupDir = (dataDir: string) => path.join(dataDir, 'backups');

export type BackupResult = { path: string; header: BackupHeader };

/** `paddock-20261126T033000Z-nightly.backup.gz`: sorts by time, says what made it. */
export function backupFileName(at: Date, kind: BackupHeader['kind']) {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `paddock-${stamp}-${kind}${BACKUP_SUFFIX}`;
}

/** Counts the bytes and hashes what passes through. */
function measure() {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/**
 * Writes one consistent snapshot of the whole database into `dir`: every table read in one
 * REPEATABLE READ transaction, so the file is the database as of one instant while bookings go
 * on. The file appears under its final name only when complete (written aside, then renamed).
 */
export async function createBackup(
  pool: pg.Pool,
  dir: string,
  opts: { kind?: BackupHeader['kind']; now?: Date } = {},
): Promise<BackupResult> {
  const kind = opts.kind ?? 'manual';
  const createdAt = opts.now ?? new Date();
  await fs.promises.mkdir(dir, { recursive: true });
  const final = path.join(dir, backupFileName(createdAt, kind));
  const token = crypto.randomBytes(4).toString('hex');
  const bodyFile = path.join(dir, `.${path.basename(final)}.${token}.body`);
  const partFile = path.join(dir, `.${path.basename(final)}.${token}.part`);
  const client = await pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    try {
      await setCopySession(client);
      const migrations = await appliedMigrations(client);
      const tables: BackupTable[] = [];
      const body = zlib.createGzip({ level: 6 });
      const written = pipeline(body, fs.createWriteStream(bodyFile));
      for (const table of await listTables(client)) {
        const copy = client.query(copyTo(copyOutSql(table)));
        const counted = measure();
        await pipeline(copy, counted.stream, async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source)
            if (!body.write(chunk)) await new Promise((r) => body.once('drain', r));
        });
        tables.push({
          name: table.name,
          columns: table.columns,
          rows: copy.rowCount,
          ...counted.result(),
        });
      }
      body.end();
      await written;
      // Read after the rows: every id in the snapshot is at or below these values.
      // The last value each handed out, read from the sequence itself: `pg_sequences` says null
      // for one moved by `setval(…, false)` (rows written with their ids, as the chain seed and
      // imports do), and a restore that left it at its start would refuse the next insert.
      const { rows: names } = await client.query<{ name: string; min: string }>(
        `select format('%I.%I', schemaname, sequencename) as name, min_value::text as min
           from pg_sequences where schemaname not in ('drizzle', 'pg_catalog')
          order by 1`,
      );
      const sequences: BackupHeader['sequences'] = [];
      for (const { name, min } of names) {
        const { rows } = await client.query<{ used: string }>(
          `select (case when is_called then last_value else last_value - 1 end)::text as used
             from ${name}`,
        );
        const used = rows[0].used;
        sequences.push({ name, last_value: BigInt(used) < BigInt(min) ? null : used });
      }
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        format_version: BACKUP_FORMAT_VERSION,
        created_at: createdAt.toISOString(),
        kind,
        migrations,
        tables,
        sequences,
      };
      await client.query('commit');
      const out = fs.createWriteStream(partFile, { mode: 0o600 });
      out.write(zlib.gzipSync(JSON.stringify(header) + '\n'));
      await pipeline(fs.createReadStream(bodyFile), out);
      await fs.promises.rename(partFile, final);
      return { path: final, header };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
    await fs.promises.rm(bodyFile, { force: true });
    await fs.promises.rm(partFile, { force: true });
  }
}
