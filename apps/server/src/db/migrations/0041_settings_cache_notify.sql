-- Hand-written (decision 0103): the venue settings are kept parsed in memory for the booking
-- statement's unpaid limit (SettingsCache), so every write to them, by any path (the API, a
-- seed, psql), says so on the `paddock_cache` channel as 0019's caches are told: 'settings'.
create function paddock_cache_settings() returns trigger language plpgsql as $$
begin
  perform pg_notify('paddock_cache', 'settings');
  return null;
end $$;
--> statement-breakpoint
create trigger settings_cache after insert or update or delete or truncate on settings
  for each statement execute function paddock_cache_settings();
