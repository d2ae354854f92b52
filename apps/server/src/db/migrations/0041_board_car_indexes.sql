-- personal_bests_board_car and laps_track_car_time (issue 33: a car group's TIME board reads
-- each car's fastest laps) are built with CREATE INDEX CONCURRENTLY by
-- src/db/concurrent-indexes.ts right after the migrations, as charges_created is (decision
-- 0092): a plain CREATE INDEX here would hold every lap import for the whole build on ten
-- million laps.
select 1;
