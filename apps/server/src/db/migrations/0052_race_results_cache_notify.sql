-- Hand-written (decision 0109): POINTS boards' standings are kept in memory per board
-- (StandingsCache), so every write to the race sessions and their results, by any path (an
-- import, a user's deletion setting their results' user to null, a seed, psql), says so on the
-- `paddock_cache` channel as 0019's caches are told: 'r'. The other caches ignore it.
create function paddock_cache_races() returns trigger language plpgsql as $$
begin
  perform pg_notify('paddock_cache', 'r');
  return null;
end $$;
--> statement-breakpoint
create trigger race_sessions_cache after insert or update or delete or truncate on race_sessions
  for each statement execute function paddock_cache_races();
--> statement-breakpoint
create trigger race_results_cache after insert or update or delete or truncate on race_results
  for each statement execute function paddock_cache_races();
