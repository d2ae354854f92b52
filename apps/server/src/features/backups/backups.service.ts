import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { DateTime } from 'luxon';
import {
  BACKUP_NAME_PATTERN,
  type BackupEntry,
  type BackupSchedule,
} from '@paddock/contract/backups';
import type { VenueSettings } from '@paddock/contract/venue';
import { createBackup } from '../../ops/backup';
import { HttpError, NotFound } from '../../plugins/errors';

/** When a backup file's snapshot was taken, from its name (`…-20261126T033000Z-…`). */
export function backupTime(name: string): Date {
  const m = /-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/.exec(name)!;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
}

/** The backups in `dir`, newest first (files still being written have other names). */
export async function listBackups(dir: string): Promise<BackupEntry[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[]))
    .filter((name) => BACKUP_NAME_PATTERN.test(name))
    .sort()
    .reverse();
  const out: BackupEntry[] = [];
  for (const name of names) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (!stat) continue;
    out.push({
      name,
      kind: name.endsWith('-nightly.backup.gz') ? 'nightly' : 'manual',
      size_bytes: stat.size,
      created: backupTime(name).toISOString(),
    });
  }
  return out;
}

/** The path of one backup, or 404 (the name's pattern already keeps it inside `dir`). */
export async function backupFile(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  if (!BACKUP_NAME_PATTERN.test(name) || !(await fs.stat(file).catch(() => null)))
    throw new NotFound();
  return file;
}

/**
 * Takes backups for one process: one at a time (a second request while one runs is told so),
 * whoever asks, staff or the nightly job.
 */
export class BackupRunner {
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    readonly dir: string,
  ) {}

  async run(kind: 'manual' | 'nightly', now = new Date()): Promise<BackupEntry> {
    if (this.running)
      throw new HttpError(409, 'A backup is already being taken. Try again shortly.');
    const work = createBackup(this.pool, this.dir, { kind, now });
    this.running = work;
    try {
      const { path: file } = await work;
      const stat = await fs.stat(file);
      const name = path.basename(file);
      return { name, kind, size_bytes: stat.size, created: backupTime(name).toISOString() };
    } finally {
      this.running = null;
    }
  }
}

/** The instant tonight's (or today's) nightly backup is due, in the venue's time zone. */
export function nightlyDueAt(now: Date, settings: VenueSettings, timezone: string): Date {
  const [hour, minute] = settings.backup_time.split(':').map(Number);
  return DateTime.fromJSDate(now, { zone: timezone })
    .set({ hour, minute, second: 0, millisecond: 0 })
    .toJSDate();
}

/**
 * One pass of the nightly job: when today's backup time has passed and no nightly backup was
 * taken since, takes one (so a server that was off at that time catches up when it starts), then
 * keeps the newest `backup_keep` nightly backups. Manual backups are never deleted here.
 * Answers the backup taken, or null.
 */
export async function nightlyPass(
  runner: BackupRunner,
  settings: VenueSettings,
  timezone: string,
  now = new Date(),
): Promise<BackupEntry | null> {
  const due = nightlyDueAt(now, settings, timezone);
  if (now < due) return null;
  const nightly = (await listBackups(runner.dir)).filter((b) => b.kind === 'nightly');
  if (nightly.some((b) => new Date(b.created) >= due)) return null;
  const taken = await runner.run('nightly', now);
  const kept = [taken, ...nightly].slice(0, settings.backup_keep).map((b) => b.name);
  for (const old of nightly)
    if (!kept.includes(old.name)) await fs.rm(path.join(runner.dir, old.name), { force: true });
  return taken;
}

export function schedule(
  settings: VenueSettings,
  timezone: string,
  nightly: boolean,
): BackupSchedule {
  return { nightly, time: settings.backup_time, keep: settings.backup_keep, timezone };
}
