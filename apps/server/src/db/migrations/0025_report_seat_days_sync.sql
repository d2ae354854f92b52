-- Hand-written (decision 0044): report_seat_days follows every write to reservations in the same
-- transaction, by trigger, so no write path (booking, cancel, move, pay, refund, desk, delete)
-- can forget it. A live booking is one that is not cancelled and not a blackout; it counts one
-- half-hour in its seat-local day and hour, and, when paid, its amount and booking fee. A row
-- whose slot is not a slot key (`YYYY-MM-DDTHH:mm`; tests and old imports wrote others) is not
-- counted, and never makes the write fail.
create function report_seat_day_add(seat int, slot text, delta int, paid boolean, amount int, fee int)
returns void language sql as $$
  insert into report_seat_days as d (calendar_id, day, hours, paid_cents, fee_cents)
  values (seat, left(slot, 10)::date,
          (select array_agg(case when h = substr(slot, 12, 2)::int then delta else 0 end order by h)
           from generate_series(0, 23) h),
          case when paid then delta * amount else 0 end,
          case when paid then delta * fee else 0 end)
  on conflict (calendar_id, day) do update set
    hours[substr(slot, 12, 2)::int + 1] = d.hours[substr(slot, 12, 2)::int + 1] + delta,
    paid_cents = d.paid_cents + excluded.paid_cents,
    fee_cents = d.fee_cents + excluded.fee_cents;
$$;
--> statement-breakpoint
create function report_seat_days_sync() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' and old.cancelled_at is null and not old.is_blackout
     and old.slot ~ '^\d{4}-\d{2}-\d{2}T\d{2}:' then
    perform report_seat_day_add(old.calendar_id, old.slot, -1, old.paid, old.amount_cents,
                                old.booking_fee_cents);
  end if;
  if tg_op <> 'DELETE' and new.cancelled_at is null and not new.is_blackout
     and new.slot ~ '^\d{4}-\d{2}-\d{2}T\d{2}:' then
    perform report_seat_day_add(new.calendar_id, new.slot, 1, new.paid, new.amount_cents,
                                new.booking_fee_cents);
  end if;
  return null;
end $$;
--> statement-breakpoint
create trigger reservations_report after insert or delete on reservations
  for each row execute function report_seat_days_sync();
--> statement-breakpoint
create trigger reservations_report_update after update on reservations for each row
  when (old.calendar_id <> new.calendar_id or old.slot <> new.slot
    or (old.cancelled_at is null) <> (new.cancelled_at is null)
    or old.is_blackout <> new.is_blackout or old.paid <> new.paid
    or old.amount_cents <> new.amount_cents or old.booking_fee_cents <> new.booking_fee_cents)
  execute function report_seat_days_sync();
--> statement-breakpoint
-- The bookings already there.
with hourly as (
  select calendar_id, left(slot, 10)::date as day, substr(slot, 12, 2)::int as hour,
         count(*)::int as n,
         coalesce(sum(amount_cents) filter (where paid), 0)::int as paid,
         coalesce(sum(booking_fee_cents) filter (where paid), 0)::int as fee
  from reservations where cancelled_at is null and not is_blackout
    and slot ~ '^\d{4}-\d{2}-\d{2}T\d{2}:'
  group by 1, 2, 3
)
insert into report_seat_days (calendar_id, day, hours, paid_cents, fee_cents)
select d.calendar_id, d.day, array_agg(coalesce(h.n, 0) order by g.hour),
       sum(coalesce(h.paid, 0)), sum(coalesce(h.fee, 0))
from (select distinct calendar_id, day from hourly) d
cross join generate_series(0, 23) g(hour)
left join hourly h on h.calendar_id = d.calendar_id and h.day = d.day and h.hour = g.hour
group by d.calendar_id, d.day;
