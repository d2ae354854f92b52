// `npm run backup` and `npm run restore -- FILE` (docs/decisions/0074): the server's own
// configuration and database opening, so they take the environment `npm start` takes.
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { BackupRefused } from './backup-format';
import { backupDir, createBackup } from './backup';
import { restoreBackup } from './restore';

async function main(argv: string[]): Promise<number> {
  const [command, file] = argv;
  if (command !== 'backup' && !(command === 'restore' && file)) {
    console.error('Usage: npm run backup | npm run restore -- FILE');
    return 2;
  }
  const config = loadConfig();
  // Beside a running Paddock on the embedded default: use its PostgreSQL, never stop it.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrate: false,
    attach: true,
  });
  try {
    if (command === 'backup') {
      const { path: written, header } = await createBackup(
        database.pool,
        backupDir(config.dataDir),
      );
      const rows = header.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`Backed up ${header.tables.length} tables, ${rows} rows.`);
      console.log(written);
    } else {
      const result = await restoreBackup(database, path.resolve(file));
      console.log(
        `Restored ${result.tables} tables, ${result.rows} rows` +
          (result.migratedForward ? `, then ${result.migratedForward} migrations.` : '.'),
      );
      console.log('Uploaded images are not in the backup: see "Operating Paddock" in README.md.');
      console.log(
        'Sessions: backups hold no signing key, so Paddock makes a new one when it starts on ' +
          'this database and everyone signs in again (unless JWT_SECRET is set).',
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof BackupRefused) {
      console.error(error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
