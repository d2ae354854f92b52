import { z } from 'zod';

/** `paddock-20261126T033000Z-nightly.backup.gz`: what `npm run backup` and the job write. */
export const BACKUP_NAME_PATTERN = /^paddock-\d{8}T\d{6}Z-(manual|nightly)\.backup\.gz$/;

export const backupNameParam = z.object({
  name: z.string().max(80).regex(BACKUP_NAME_PATTERN, 'Not a backup file name.'),
});

/** One backup file in `DATA_DIR/backups` (docs/decisions/0074). */
export const backupEntry = z.object({
  name: z.string(),
  /** `nightly`: the scheduled job's (kept as the venue settings say); `manual`: anyone's. */
  kind: z.enum(['manual', 'nightly']),
  size_bytes: z.number().int(),
  /** ISO 8601 instant of the snapshot. */
  created: z.string(),
});
export type BackupEntry = z.infer<typeof backupEntry>;

/** The nightly schedule, as the list shows it. */
export const backupSchedule = z.object({
  /** False with DATABASE_URL: that server's own backups (pg_dump, PITR) come first. */
  nightly: z.boolean(),
  time: z.string(),
  keep: z.number().int(),
  timezone: z.string(),
});
export type BackupSchedule = z.infer<typeof backupSchedule>;
