-- Hand-written (decision 0103): the venue settings are kept parsed in memory for the booking
-- statement's unpaid limit (SettingsCache), so every write to them, by any path (the API, a
-- seed, psql), says so on the `paddock_cache` channel as 0019's caches are told. '*' (forget
-- all): settings change seldom, and the other caches' forgetting costs one read each.
create trigger settings_cache after insert or update or delete or truncate on settings
  for each statement execute function paddock_cache_all();
