import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { runJob } from '../../lib/job-run';
import { getSettings, venueTimezone } from '../../plugins/settings';
import { nightlyPass, type BackupRunner } from './backups.service';

/**
 * The embedded default's nightly backup: checked every minute (the time is a venue setting
 * staff may change at any moment) and once at start, so a night the server was off is caught
 * up. Started by main.ts only, never in tests (they call nightlyPass with a clock).
 */
export function startNightlyBackups(
  runner: BackupRunner,
  db: Db,
  log: FastifyBaseLogger,
): { stop: () => void } {
  const pass = () =>
    runJob(log, 'nightly backup', async (jobLog) => {
      const taken = await nightlyPass(runner, await getSettings(db), await venueTimezone(db));
      if (taken) jobLog.info({ backup: taken.name, bytes: taken.size_bytes }, 'backup taken');
    });
  const job = new Cron('* * * * *', { protect: true }, pass);
  void job.trigger();
  return { stop: () => job.stop() };
}
