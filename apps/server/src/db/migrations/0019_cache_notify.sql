-- Hand-written (decision 0036): what the in-memory caches of every API instance must forget,
-- announced on the `paddock_cache` channel by triggers, so no write path can forget to say it.
-- Payloads: 'u:<user id>' (a user's sessions or rights), 'j:<jti>' (one session logged out),
-- 's:<seat id>' (a seat's reservations), '*' (seats, locations, types, races: forget all).
-- NOTIFY is heard only after the commit, and identical payloads in one transaction go once.
create function paddock_cache_user() returns trigger language plpgsql as $$
begin
  perform pg_notify('paddock_cache', 'u:' || coalesce(new.id, old.id));
  return null;
end $$;
--> statement-breakpoint
create trigger users_cache after update on users for each row
  when (old.session_version is distinct from new.session_version
    or old.is_active is distinct from new.is_active
    or old.is_staff is distinct from new.is_staff
    or old.is_superuser is distinct from new.is_superuser)
  execute function paddock_cache_user();
--> statement-breakpoint
create trigger users_cache_delete after delete on users for each row
  execute function paddock_cache_user();
--> statement-breakpoint
create function paddock_cache_permission() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform pg_notify('paddock_cache', 'u:' || old.user_id); end if;
  if tg_op <> 'DELETE' then perform pg_notify('paddock_cache', 'u:' || new.user_id); end if;
  return null;
end $$;
--> statement-breakpoint
create trigger user_permissions_cache after insert or update or delete on user_permissions
  for each row execute function paddock_cache_permission();
--> statement-breakpoint
create function paddock_cache_revoked() returns trigger language plpgsql as $$
begin
  perform pg_notify('paddock_cache', 'j:' || new.jti);
  return null;
end $$;
--> statement-breakpoint
create trigger revoked_sessions_cache after insert or update on revoked_sessions
  for each row execute function paddock_cache_revoked();
--> statement-breakpoint
create function paddock_cache_reservation() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform pg_notify('paddock_cache', 's:' || old.calendar_id); end if;
  if tg_op <> 'DELETE' then perform pg_notify('paddock_cache', 's:' || new.calendar_id); end if;
  return null;
end $$;
--> statement-breakpoint
create trigger reservations_cache after insert or update or delete on reservations
  for each row execute function paddock_cache_reservation();
--> statement-breakpoint
create function paddock_cache_all() returns trigger language plpgsql as $$
begin
  perform pg_notify('paddock_cache', '*');
  return null;
end $$;
--> statement-breakpoint
create trigger calendars_cache after insert or update or delete or truncate on calendars
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger locations_cache after insert or update or delete or truncate on locations
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger calendar_types_cache after insert or update or delete or truncate on calendar_types
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger parties_cache after insert or update or delete or truncate on parties
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger party_members_cache after insert or update or delete or truncate on party_members
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger race_events_cache after insert or update or delete or truncate on race_events
  for each statement execute function paddock_cache_all();
--> statement-breakpoint
create trigger reservations_cache_truncate after truncate on reservations
  for each statement execute function paddock_cache_all();
