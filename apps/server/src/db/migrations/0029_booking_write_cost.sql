-- Hand-written (decision 0060): a booking's report row (decision 0044) updated in place when the
-- seat's day already has one (almost always), by a plpgsql function whose statements each
-- connection plans once. The SQL function before built the day's 24 hours with a subquery over
-- generate_series on every call, and went through ON CONFLICT's speculative insertion, even
-- when the row was there. Same arguments, same effect: a slot's hour outside 0–23 still counts
-- no hour on a new row, and an invalid day still fails the write as before.
create or replace function report_seat_day_add(seat int, slot text, delta int, paid boolean, amount int, fee int)
returns void language plpgsql as $$
declare
  v_day date := left(slot, 10)::date;
  v_hour int := substr(slot, 12, 2)::int;
  v_paid int := case when paid then delta * amount else 0 end;
  v_fee int := case when paid then delta * fee else 0 end;
  v_hours int[];
begin
  update report_seat_days as d set
    hours[v_hour + 1] = d.hours[v_hour + 1] + delta,
    paid_cents = d.paid_cents + v_paid,
    fee_cents = d.fee_cents + v_fee
  where d.calendar_id = seat and d.day = v_day;
  if found then
    return;
  end if;
  v_hours := array_fill(0, array[24]);
  if v_hour between 0 and 23 then
    v_hours[v_hour + 1] := delta;
  end if;
  insert into report_seat_days as d (calendar_id, day, hours, paid_cents, fee_cents)
  values (seat, v_day, v_hours, v_paid, v_fee)
  on conflict (calendar_id, day) do update set
    hours[v_hour + 1] = d.hours[v_hour + 1] + delta,
    paid_cents = d.paid_cents + excluded.paid_cents,
    fee_cents = d.fee_cents + excluded.fee_cents;
end $$;
