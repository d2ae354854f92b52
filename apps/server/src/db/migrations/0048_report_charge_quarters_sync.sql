-- Hand-written (decision 0107): report_charge_quarters follows every write to charges, by a
-- deferred constraint trigger: each row's change is queued and applied when its transaction
-- commits, so the bucket row (shared by every charge of that quarter-hour across the chain) is
-- locked for the commit only, not for the rest of a checkout's transaction. The rollup keeps the
-- charges' own dimensions (kind, method or '', whether the provider gave a reference, whether it
-- succeeded); what counts as taken or sold is the reports' reads' rule (reports.repo.ts), not
-- this file's. Buckets are UTC quarter-hours: every real time zone's midnight falls on one.
create function report_charge_quarter_add(created timestamptz, kind text, method text,
                                          referenced boolean, succeeded boolean, cents bigint,
                                          delta int)
returns void language sql as $$
  insert into report_charge_quarters as q
    (bucket, kind, method, referenced, succeeded, amount_cents, charges)
  values (date_bin('15 minutes', created, timestamptz '2000-01-01 00:00:00+00'), kind,
          coalesce(method, ''), referenced, succeeded, delta * cents, delta)
  on conflict (bucket, kind, method, referenced, succeeded) do update set
    amount_cents = q.amount_cents + excluded.amount_cents,
    charges = q.charges + excluded.charges;
  -- A bucket row no charge is left in goes (its sum is then 0 as well).
  delete from report_charge_quarters q
  where delta < 0 and q.charges = 0
    and q.bucket = date_bin('15 minutes', created, timestamptz '2000-01-01 00:00:00+00')
    and q.kind = report_charge_quarter_add.kind and q.method = coalesce(report_charge_quarter_add.method, '')
    and q.referenced = report_charge_quarter_add.referenced
    and q.succeeded = report_charge_quarter_add.succeeded;
$$;
--> statement-breakpoint
create function report_charge_quarters_sync() returns trigger language plpgsql as $$
begin
  -- One lock for every transaction's rollup writes, taken at its commit and held to its end: two
  -- commits that touch several bucket rows (a refund and a charge, charges of two quarter-hours)
  -- in opposite orders wait for each other instead of deadlocking (decision 0107). The rows that
  -- most commits share (this quarter-hour's card bookings) serialise them there anyway.
  perform pg_advisory_xact_lock(1070107);
  if tg_op <> 'INSERT' then
    perform report_charge_quarter_add(old.created_at, old.kind, old.method,
                                      old.charge_ref is not null, old.errors = '',
                                      old.amount_cents, -1);
  end if;
  if tg_op <> 'DELETE' then
    perform report_charge_quarter_add(new.created_at, new.kind, new.method,
                                      new.charge_ref is not null, new.errors = '',
                                      new.amount_cents, 1);
  end if;
  return null;
end $$;
--> statement-breakpoint
create constraint trigger charges_report after insert or delete on charges
  deferrable initially deferred for each row execute function report_charge_quarters_sync();
--> statement-breakpoint
-- Queued only when a dimension or the amount changes (the WHEN is checked at the update itself).
create constraint trigger charges_report_update after update on charges
  deferrable initially deferred for each row
  when (old.created_at <> new.created_at or old.kind <> new.kind
    or old.method is distinct from new.method
    or (old.charge_ref is null) <> (new.charge_ref is null)
    or (old.errors = '') <> (new.errors = '') or old.amount_cents <> new.amount_cents)
  execute function report_charge_quarters_sync();
--> statement-breakpoint
-- The charges already there, in bucket order: a period's rows sit together on disk, as the
-- trigger's own inserts (in time order) leave them. The triggers above already hold charges'
-- writes until the migrations commit, so none is missed or counted twice.
insert into report_charge_quarters (bucket, kind, method, referenced, succeeded, amount_cents, charges)
select date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00'), kind,
       coalesce(method, ''), charge_ref is not null, errors = '', sum(amount_cents), count(*)
from charges
group by 1, 2, 3, 4, 5
order by 1, 2, 3, 4, 5;
