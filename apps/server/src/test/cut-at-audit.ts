import pg from 'pg';

/**
 * Ends the connection that writes the audit row `action` (the last write of most changes), so a
 * test sees what a crash at that moment leaves. Answers `heal` (stops cutting) and `close`.
 */
export async function cutAtAudit(databaseUrl: string, action: string) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const name = `test_cut_${action.replace(/\W/g, '_')}`;
  await admin.query(`
    create or replace function ${name}() returns trigger language plpgsql as $$
    begin
      if new.action = '${action}' then
        perform pg_terminate_backend(pg_backend_pid());
      end if;
      return new;
    end $$;
    create trigger ${name} before insert on audit_events
      for each row execute function ${name}();`);
  const heal = () => admin.query(`drop trigger if exists ${name} on audit_events`);
  return {
    heal,
    async close() {
      await heal();
      await admin.query(`drop function if exists ${name}()`);
      await admin.end();
    },
  };
}
