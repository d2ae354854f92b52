import pg from 'pg';
import { FEED_APPLICATION_NAME } from '../plugins/changes';
import type { TestApp } from './test-app';

/** Ends the change feed's LISTEN connection from the server's side, as a database restart would. */
export async function endChangeFeedConnection(t: TestApp) {
  const admin = new pg.Client({ connectionString: t.deps.database.url });
  await admin.connect();
  try {
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and application_name = $1`,
      [FEED_APPLICATION_NAME],
    );
  } finally {
    await admin.end();
  }
}
