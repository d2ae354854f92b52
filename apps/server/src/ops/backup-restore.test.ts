import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { connect, type Database } from '../db/client';
import { createMailer } from '../plugins/mail';
import { createPaymentProvider } from '../plugins/payments/create-provider';
import { Tokens } from '../plugins/auth';
import { seedDemoVenue } from '../seed/demo';
import { createTestApp, type TestApp } from '../test/test-app';
import { bearer, createUser, type CreatedUser } from '../test/factories';
import { createVenue, futureDate } from '../test/booking-factories';
import { saveTestCard } from '../test/cards';
import { databaseUrl } from '../test/database-url';
import { AC_RESULTS } from '../test/fixtures';
import { createBackup } from './backup';
import { restoreBackup } from './restore';
import { knownMigrations, migrateTo } from './migration-steps';
import { BackupRefused } from './backup-format';
import { listTables } from './database-tables';
import { loadOrCreateSecret } from '../lib/secret';

const SECRET = 'test-secret-test-secret-test-secret-0123';
let t: TestApp;
let customer: CreatedUser;
let dir: string;
const made: Database[] = [];
const names: string[] = [];

/** A new database with nothing in it, not even the migrations. */
async function emptyDatabase(): Promise<Database> {
  const admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  const name = `paddock_restore_${crypto.randomBytes(4).toString('hex')}`;
  await admin.query(`create database "${name}"`);
  await admin.end();
  names.push(name);
  const database = connect(databaseUrl(inject('dbAdminUrl'), name), 4);
  made.push(database);
  return database;
}

/**
 * Every table's rows as one checksum, computed apart from the backup's own code (row text in
 * byte order), and every sequence's position.
 */
async function fingerprint(database: Database) {
  const { rows: tables } = await database.pool.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await database.pool.query<{ n: number; sum: string | null }>(
      `select count(*)::int as n, md5(string_agg(t::text, E'\\n' order by t::text collate "C")) as sum
         from ${name} t`,
    );
    out[name] = `${rows[0].n}:${rows[0].sum}`;
  }
  const { rows: seqs } = await database.pool.query<{ name: string; v: string | null }>(
    `select sequencename as name, last_value::text as v from pg_sequences
      where schemaname = 'public' order by 1`,
  );
  for (const s of seqs) out[`sequence ${s.name}`] = String(s.v);
  return out;
}

/** The tables a database has, outside PostgreSQL's own. */
async function tablesOf(database: Database) {
  const { rows } = await database.pool.query<{ name: string }>(
    `select tablename as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  return rows.map((r) => r.name);
}

/** Every index of the database, by its definition. */
async function indexesOf(database: Database) {
  const { rows } = await database.pool.query<{ def: string }>(
    `select indexdef as def from pg_indexes
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  return rows.map((r) => r.def);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-backups-'));
  t = await createTestApp();
  await seedDemoVenue(t.db);
  const venue = await createVenue(t, { seats: 2 });
  const staff = await createUser(t, { isStaff: true, permissions: ['laps.change_lap'] });
  customer = await createUser(t, { password: 'restore-me-please' });
  await saveTestCard(t, customer);
  // Book and pay.
  const day = futureDate(3);
  const quoted = await t.app.inject({
    method: 'POST',
    url: '/api/reservations/checkouts/quote',
    headers: bearer(customer.token),
    payload: { reservations: [{ calendar: venue.seats[0].id, slot: `${day}T18:00` }] },
  });
  expect(quoted.statusCode).toBe(200);
  const paid = await t.app.inject({
    method: 'POST',
    url: `/api/reservations/checkouts/${quoted.json().checkout_id}/process`,
    headers: bearer(customer.token),
    payload: {},
  });
  expect(paid.statusCode).toBe(200);
  // Import laps.
  const imported = await t.app.inject({
    method: 'POST',
    url: '/api/laps/import',
    headers: { ...bearer(staff.token), 'content-type': 'application/octet-stream' },
    payload: fs.readFileSync(path.join(AC_RESULTS, 'server-race-monza.json')),
  });
  expect(imported.statusCode).toBeLessThan(300);
  await t.app.receipts.close();
});

afterAll(async () => {
  await t.close();
  for (const d of made) await d.close().catch(() => {});
  const admin = new pg.Client({ connectionString: inject('dbAdminUrl') });
  await admin.connect();
  for (const name of names) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores every row, and the app runs on the copy', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    expect(path.dirname(backup.path)).toBe(dir);
    expect(fs.readdirSync(dir)).toEqual([path.basename(backup.path)]);
    const byName = Object.fromEntries(backup.header.tables.map((x) => [x.name, x.rows]));
    expect(byName['public.laps']).toBeGreaterThan(0);
    expect(byName['public.reservations']).toBeGreaterThan(0);
    expect(byName['public.charges']).toBeGreaterThan(0);

    const target = await emptyDatabase();
    const result = await restoreBackup(target, backup.path);
    expect(result.migratedForward).toBe(0);
    expect(await fingerprint(target)).toEqual(await fingerprint(t.deps.database));
    // The indexes the load dropped (built once the rows were in) are all back, as they were.
    expect(await indexesOf(target)).toEqual(await indexesOf(t.deps.database));

    // The app on the restored database: a login, a booking and a board read.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paddock-restored-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    const app = await buildApp({
      config,
      database: target,
      mailer: createMailer({ from: config.mailFrom, dataDir, db: target.db }),
      payments: await createPaymentProvider(config, target.db),
      tokens: new Tokens(SECRET, 3600),
    });
    try {
      await app.ready();
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { username: customer.email, password: 'restore-me-please' },
      });
      expect(login.statusCode).toBe(200);
      const access = login.json().access as string;
      const { rows } = await target.pool.query<{ id: number }>(
        'select id from calendars order by id limit 1',
      );
      const booked = await app.inject({
        method: 'POST',
        url: '/api/reservations',
        headers: bearer(access),
        payload: { calendar: rows[0].id, slot: `${futureDate(4)}T19:00` },
      });
      expect(booked.statusCode).toBe(201);
      const boards = await app.inject({ method: 'GET', url: '/api/boards' });
      expect(boards.statusCode).toBe(200);
      const counts: number[] = [];
      for (const board of boards.json() as { id: number }[]) {
        const read = await app.inject({ method: 'GET', url: `/api/boards/${board.id}/results` });
        expect(read.statusCode).toBe(200);
        counts.push((read.json() as unknown[]).length);
      }
      expect(Math.max(...counts)).toBeGreaterThan(0);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is one snapshot: rows committed while it runs are in none of its tables', async () => {
    // Hold the backup at the table it reads just before user_permissions (after users, their
    // parent): a user and their permission committed meanwhile must be in neither table, or the
    // copy breaks its own keys.
    const blocker = await t.deps.database.pool.connect();
    const order = (await listTables(blocker)).map((x) => x.name);
    const held = order[order.indexOf('public.user_permissions') - 1];
    expect(order.indexOf('public.users')).toBeLessThan(order.indexOf(held));
    await blocker.query('begin');
    await blocker.query(`lock table ${held} in access exclusive mode`);
    const running = createBackup(t.deps.database.pool, dir);
    for (let i = 0; ; i += 1) {
      const { rows } = await t.deps.database.pool.query(
        `select 1 from pg_locks where relation = $1::regclass and not granted`,
        [held],
      );
      if (rows.length > 0) break;
      if (i > 200) throw new Error(`the backup never reached ${held}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const { rows: made } = await blocker.query<{ id: number }>(
      `insert into users (username, email, password_hash, first_name, last_name)
       values ('late@example.com', 'late@example.com', 'x', 'Late', 'Comer') returning id`,
    );
    await blocker.query(
      `insert into user_permissions (user_id, permission) values ($1, 'audit.view_event')`,
      [made[0].id],
    );
    await blocker.query('commit');
    blocker.release();
    const backup = await running;
    const target = await emptyDatabase();
    await restoreBackup(target, backup.path);
    const { rows } = await target.pool.query(
      `select (select count(*)::int from users where email = 'late@example.com') as users,
              (select count(*)::int from user_permissions where user_id = $1) as permissions`,
      [made[0].id],
    );
    expect(rows[0]).toEqual({ users: 0, permissions: 0 });
  });

  it('refuses a database that is not empty, and writes nothing', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    const before = await fingerprint(t.deps.database);
    await expect(restoreBackup(t.deps.database, backup.path)).rejects.toThrow(
      /not empty .*restore into an empty database/,
    );
    expect(await fingerprint(t.deps.database)).toEqual(before);
  });

  it('refuses a backup from a newer Paddock, before touching the database', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    const forged = rewriteHeader(backup.path, (h) => ({
      ...h,
      migrations: [...(h.migrations as string[]), 'f'.repeat(64)],
    }));
    const target = await emptyDatabase();
    const error = await restoreBackup(target, forged).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupRefused);
    expect((error as Error).message).toMatch(
      /newer or different Paddock .*restore it with the Paddock version that made it/,
    );
    const { rows } = await target.pool.query(
      `select 1 from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses a database at another migration', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    const target = await emptyDatabase();
    await migrateTo(target, knownMigrations().length - 1);
    await expect(restoreBackup(target, backup.path)).rejects.toThrow(
      /database is at migration \d+ and the backup at \d+: restore into an empty database/,
    );
  });

  it('restores a sequence moved by setval(…, false) where its next value was', async () => {
    // Rows written with their ids (the chain seed, imports) leave their sequence uncalled:
    // pg_sequences reads null for it, and a restore that kept it at 1 refused the next insert.
    const { rows } = await t.deps.database.pool.query<{ next: string }>(
      `select setval('locations_id_seq', (select max(id) from locations) + 10, false)::text as next`,
    );
    const backup = await createBackup(t.deps.database.pool, dir);
    const target = await emptyDatabase();
    await restoreBackup(target, backup.path);
    const inserted = await target.pool.query<{ id: number }>(
      `insert into locations (name, timezone) values ('After the restore', 'UTC') returning id`,
    );
    expect(String(inserted.rows[0].id)).toBe(rows[0].next);
  });

  it('refuses a file whose table does not match its checksum, before writing anything', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    const forged = rewriteHeader(backup.path, (h) => ({
      ...h,
      tables: (h.tables as { name: string; sha256: string }[]).map((x) =>
        x.name === 'public.users' ? { ...x, sha256: '0'.repeat(64) } : x,
      ),
    }));
    const target = await emptyDatabase();
    await expect(restoreBackup(target, forged)).rejects.toThrow(
      /is damaged: table public.users does not match its checksum. Nothing was restored./,
    );
    expect(await tablesOf(target)).toEqual([]);
  });

  it('refuses a file cut short or damaged in a sentence, and leaves the database empty', async () => {
    const backup = await createBackup(t.deps.database.pool, dir);
    const bytes = fs.readFileSync(backup.path);
    const cut = path.join(dir, 'cut.backup.gz');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    // One row's text changed inside the data (the gzip itself stays valid).
    const text = zlib.gunzipSync(bytes);
    const at = text.indexOf(customer.email);
    const flipped = Buffer.from(text);
    if (at < 0) throw new Error('no row to damage');
    flipped[at] = 'R'.charCodeAt(0);
    const header = text.subarray(0, text.indexOf(10) + 1);
    const damaged = path.join(dir, 'damaged.backup.gz');
    fs.writeFileSync(
      damaged,
      Buffer.concat([zlib.gzipSync(header), zlib.gzipSync(flipped.subarray(header.length))]),
    );
    for (const [file, says] of [
      [cut, /is damaged or cut short \(.+\)\. Nothing was restored\.$/],
      [damaged, /is damaged: table \S+ does not match its checksum\. Nothing was restored\.$/],
    ] as const) {
      const target = await emptyDatabase();
      const error = await restoreBackup(target, file).catch((e: unknown) => e);
      expect(error, file).toBeInstanceOf(BackupRefused);
      expect((error as Error).message).toMatch(says);
      expect(await tablesOf(target)).toEqual([]);
    }
  });

  it('holds no session-signing key: a restored database signs with a new one', async () => {
    const secret = await loadOrCreateSecret(t.db, dir, undefined);
    const backup = await createBackup(t.deps.database.pool, dir);
    expect(backup.header.tables.map((x) => x.name)).not.toContain('public.app_secrets');
    expect(zlib.gunzipSync(fs.readFileSync(backup.path)).includes(secret)).toBe(false);
    const target = await emptyDatabase();
    await restoreBackup(target, backup.path);
    const { rows } = await target.pool.query('select name from app_secrets');
    expect(rows).toEqual([]);
    const fresh = await loadOrCreateSecret(target.db, dir, undefined);
    expect(fresh).not.toBe(secret);
    expect(fresh).toHaveLength(64);
  });

  it('restores a backup of an older schema and migrates it forward', async () => {
    const older = await emptyDatabase();
    const count = knownMigrations().length - 2;
    await migrateTo(older, count);
    await older.pool.query(
      `insert into users (username, email, password_hash, first_name, last_name)
       values ('old@example.com', 'old@example.com', 'x', 'Old', 'Timer')`,
    );
    const backup = await createBackup(older.pool, dir);
    expect(backup.header.migrations).toHaveLength(count);
    const target = await emptyDatabase();
    const result = await restoreBackup(target, backup.path);
    expect(result.migratedForward).toBe(2);
    const { rows } = await target.pool.query('select email from users');
    expect(rows).toEqual([{ email: 'old@example.com' }]);
    const { rows: applied } = await target.pool.query(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(applied[0].n).toBe(knownMigrations().length);
  });
});

/** A copy of a backup with its header changed (the rows untouched). */
function rewriteHeader(file: string, change: (h: Record<string, unknown>) => object): string {
  const text = zlib.gunzipSync(fs.readFileSync(file));
  const at = text.indexOf(10);
  const header = change(JSON.parse(text.subarray(0, at).toString('utf8')));
  const out = path.join(dir, `forged-${crypto.randomBytes(3).toString('hex')}.gz`);
  fs.writeFileSync(
    out,
    zlib.gzipSync(Buffer.concat([Buffer.from(JSON.stringify(header)), text.subarray(at)])),
  );
  return out;
}
