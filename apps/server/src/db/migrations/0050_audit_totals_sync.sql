-- Hand-written (decision 0108): audit_totals follows every insert and delete of audit_events, by
-- a deferred constraint trigger (as report_charge_quarters does for charges, 0107): the one row
-- is changed when each transaction commits, so it is locked for the commit only, not for the
-- rest of the staff action that wrote the trail. One row, so no two commits can take rows in
-- opposite orders. An empty trail has no row (an empty database stays empty: a restore loads
-- into one), and the trail's first write makes it.
create function audit_totals_sync() returns trigger language plpgsql as $$
begin
  insert into audit_totals as a (one, events)
  values (true, case when tg_op = 'INSERT' then 1 else -1 end)
  on conflict (one) do update set events = a.events + excluded.events;
  return null;
end $$;
--> statement-breakpoint
create constraint trigger audit_events_total after insert or delete on audit_events
  deferrable initially deferred for each row execute function audit_totals_sync();
--> statement-breakpoint
-- The audit rows already there. The trigger above already holds writes to the trail until the
-- migrations commit, so none is missed or counted twice.
insert into audit_totals (one, events)
select true, count(*) from audit_events having count(*) > 0;
