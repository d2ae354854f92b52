-- Hand-written (decisions 0034 and 0036): a seat held for, or released from, someone on the
-- waitlist changes what availability shows, so the answer caches of every instance forget it.
create function paddock_cache_waitlist() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' and old.held_calendar_id is not null then
    perform pg_notify('paddock_cache', 's:' || old.held_calendar_id);
  end if;
  if tg_op <> 'DELETE' and new.held_calendar_id is not null then
    perform pg_notify('paddock_cache', 's:' || new.held_calendar_id);
  end if;
  return null;
end $$;
--> statement-breakpoint
create trigger waitlist_entries_cache after insert or update or delete on waitlist_entries
  for each row execute function paddock_cache_waitlist();
