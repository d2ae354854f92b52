-- Hand-written (decision 0053): a write made as one statement may announce its seats after its
-- commit instead (announceAfterCommit), so the statement sets `paddock.announce` to
-- 'after-commit' for its own transaction and these triggers leave the NOTIFY to it. Everything
-- else (and any transaction that does not set it) announces from the trigger, as before.
create or replace function paddock_cache_reservation() returns trigger language plpgsql as $$
begin
  if current_setting('paddock.announce', true) is not distinct from 'after-commit' then
    return null;
  end if;
  if tg_op <> 'INSERT' then perform pg_notify('paddock_cache', 's:' || old.calendar_id); end if;
  if tg_op <> 'DELETE' then perform pg_notify('paddock_cache', 's:' || new.calendar_id); end if;
  return null;
end $$;
--> statement-breakpoint
create or replace function paddock_cache_waitlist() returns trigger language plpgsql as $$
begin
  if current_setting('paddock.announce', true) is not distinct from 'after-commit' then
    return null;
  end if;
  if tg_op <> 'INSERT' and old.held_calendar_id is not null then
    perform pg_notify('paddock_cache', 's:' || old.held_calendar_id);
  end if;
  if tg_op <> 'DELETE' and new.held_calendar_id is not null then
    perform pg_notify('paddock_cache', 's:' || new.held_calendar_id);
  end if;
  return null;
end $$;
