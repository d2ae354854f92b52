import { lazy, memo, Suspense, useDeferredValue, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { AvailSlot } from '@paddock/contract/calendars';
import { PageTitle } from '../../../components/page-title';
import { VenueHeaderImage } from '../../../components/venue-header-image';
import { StickyBottomBar } from '../../../components/sticky-bottom-bar';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { dismissAlert, showAlert, showError } from '../../../lib/alerts';
import { countOf, SLOTS } from '../../../lib/plural';
import { formatSlotTime } from '../../../lib/slot-format';
import { useJoinWaitlist } from '../api/join-waitlist';
import { useCurrentUser } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/error-message';
import { useNow } from '../../../lib/use-now';
import {
  addMonths,
  browserZoneDiffers,
  formatSlotDate,
  runSlots,
  todayIn,
} from '../../../lib/slot-format';
import { quoteCheckout } from '../../../lib/api/quote-checkout';
import type { OpenCheckout } from '../../../components/checkout/checkout-modal';
import { cellKey, SlotGrid, type GridSeat } from '../components/slot-grid';
import { nearestLocationQuery } from '../api/get-nearest-location';
import { seatAvailabilityQuery } from '../api/get-seat-availability';
import { bookingLocationsQuery } from '../api/list-booking-locations';
import { calendarTypesQuery } from '../api/list-calendar-types';
import { calendarsQuery } from '../api/list-calendars';
import { OPENING_SEARCH, parallelQuery } from '../api/search-parallel';
import { AvailabilityAlert } from '../components/availability-alert';
import { BookingFilters } from '../components/booking-filters';
import { ClubAlert } from '../components/club-alert';
import { StartTimes, type StartTime } from '../components/start-times';
import {
  minimumStayProblem,
  pickSideBySide,
  sortChosen,
  startTimesFrom,
  type ChosenSlot,
} from '../selection';

const MAX_RACERS = 20;

// Loaded on demand: the month calendar (date-fns inside) and the checkout with its card forms.
// The calendar is memoised: its props change only with the date, so the screen's renders as
// each seat's slots arrive do not render the month again (decision 0065).
const BookingDatePicker = memo(lazy(() => import('../components/booking-date-picker')));
const CheckoutModal = lazy(() => import('../../../components/checkout/checkout-modal'));

/** A selection belongs to one search; a new search starts with nothing chosen. */
type Selection = { search: string; items: Map<string, ChosenSlot> };

/**
 * Book a Simulator (/reservations/all, customer §2): location (nearest by default, or the
 * `location` query), simulator types, racers and race minutes, a date from today to two months
 * ahead. The parallel search says whether the group fits; the grid shows every seat's slots;
 * Checkout prices the chosen ones and opens the checkout modal.
 */
export default function ReservationLocationsScreen() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const user = useCurrentUser().data;
  const now = useNow();
  const locations = useQuery(bookingLocationsQuery);
  const queryLocation = Number(params.get('location')) || undefined;
  const nearest = useQuery({
    ...nearestLocationQuery(user?.id ?? 0),
    enabled: !!user && queryLocation === undefined,
  });
  const types = useQuery(calendarTypesQuery);

  // The opening search is the one the route asked for beside boot (its prefetch).
  const [chosenTypes, setChosenTypes] = useState<number[]>(() => [...OPENING_SEARCH.types]);
  const [racersWanted, setRacers] = useState(OPENING_SEARCH.racers);
  const [minutes, setMinutes] = useState(OPENING_SEARCH.minutes);
  const [pickedDate, setPickedDate] = useState<string | null>(null);
  const [selection, setSelection] = useState<Selection>({ search: '', items: new Map() });
  const [checkout, setCheckout] = useState<OpenCheckout | null>(null);
  const selectedToast = useRef<number | null>(null);
  // The results (start times and the seat grid) come in a second, deferred render, which React
  // splits into short tasks: on a phone they are under the search card, below the first screen
  // (decision 0065, as the dashboard's panels in 0064).
  const resultsShown = useDeferredValue(true, false);

  const list = locations.data ?? [];
  const location =
    list.find((l) => l.id === queryLocation) ??
    list.find((l) => l.id === nearest.data?.id) ??
    (queryLocation === undefined && nearest.isPending && !!user ? undefined : list[0]);
  const zone = location?.timezone ?? 'UTC';
  const today = todayIn(zone, new Date(now));
  const lastDate = addMonths(today, 2);
  const date = pickedDate && pickedDate >= today && pickedDate <= lastDate ? pickedDate : today;

  const seats = useQuery({
    ...calendarsQuery(location?.id ?? 0, chosenTypes),
    enabled: !!location,
  });
  const maxRacers = Math.max(1, Math.min(MAX_RACERS, seats.data?.length ?? 1));
  const racers = Math.min(racersWanted, maxRacers);
  const search = { date, location: location?.id ?? 0, racers, minutes, types: chosenTypes };
  const searchKey = JSON.stringify(search);
  const parallel = useQuery({ ...parallelQuery(search), enabled: !!location });
  const availability = useQueries({
    queries: (seats.data ?? []).map((s) => seatAvailabilityQuery(s.id, date)),
  });
  // A seat whose slots could not be loaded shows nothing bookable rather than loading forever.
  const availBySeat = Object.fromEntries(
    (seats.data ?? []).map((s, i) => [s.id, availability[i]?.isError ? {} : availability[i]?.data]),
  );

  const chosen = selection.search === searchKey ? selection.items : new Map<string, ChosenSlot>();
  const chosenKeys = new Set(chosen.keys());
  const starts = parallel.data ? startTimesFrom(parallel.data) : [];

  const setChosen = (items: Map<string, ChosenSlot>) => setSelection({ search: searchKey, items });

  const joinWaitlist = useJoinWaitlist();
  const toggle = (seat: GridSeat, slot: AvailSlot) => {
    const key = cellKey(seat.id, slot.slot);
    const next = new Map(chosen);
    if (next.has(key)) next.delete(key);
    else next.set(key, { calendar: seat.id, slot: slot.slot });
    setChosen(next);
  };

  const pickStart = (start: StartTime) => {
    const order = (seats.data ?? []).map((s) => s.id);
    const seatIds = pickSideBySide(order, start.seatIds, racers);
    const next = new Map<string, ChosenSlot>();
    const slots = runSlots(start.time, minutes / 30, zone);
    for (const slot of slots) {
      for (const calendar of seatIds) next.set(cellKey(calendar, slot), { calendar, slot });
    }
    setChosen(next);
    selectedToast.current = showAlert(
      `${countOf(seatIds.length * slots.length, SLOTS)} selected. Press Checkout to review and reserve.`,
      'info',
      5_000,
    );
  };

  const refresh = () => {
    setChosen(new Map());
    void client.invalidateQueries({
      predicate: (q) => q.queryKey[0] === 'avail' || q.queryKey[0] === 'parallel',
    });
  };

  const quote = useMutation({ mutationFn: quoteCheckout });
  const openCheckout = () => {
    const items = sortChosen(chosen.values());
    quote.mutate(
      { reservations: items },
      {
        onSuccess: (answer) => {
          // The toast sits above modals: it would cover the checkout's title.
          if (selectedToast.current !== null) dismissAlert(selectedToast.current);
          setCheckout({ quote: answer, items });
        },
        // The words for a refused quote load on demand: not part of the grid's first paint
        // (issue 46, decision 0126).
        onError: (error) =>
          void import('../../../lib/booking-errors').then(
            ({ checkoutErrorMessage, isSlotTaken }) => {
              showAlert(checkoutErrorMessage(error), 'danger');
              if (isSlotTaken(error)) refresh();
            },
          ),
      },
    );
  };

  const chooseLocation = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('location', String(id));
    setParams(next, { replace: true });
  };

  const gridSeats: GridSeat[] = seats.data ?? [];
  const everyType =
    chosenTypes.length === 0 || (types.data ?? []).every((t) => chosenTypes.includes(t.id));
  const count = chosen.size;
  const ownSlots = (seatId: number) =>
    Object.values(availBySeat[seatId] ?? {})
      .filter((s) => s.state === 'mine_paid' || s.state === 'mine_unpaid')
      .map((s) => s.slot);
  const tooShort = minimumStayProblem(chosen.values(), seats.data ?? [], ownSlots);

  let results;
  if (!location) {
    results = locations.isError ? (
      <p className="text-danger">{errorMessage(locations.error)}</p>
    ) : locations.data && !list.length ? (
      <p>There are no locations to book yet.</p>
    ) : (
      <SpinnerScreen label="Loading locations…" />
    );
  } else {
    results = (
      <>
        {parallel.isPending ? (
          <SpinnerScreen label="Searching for simulators…" />
        ) : parallel.isError ? (
          <p className="text-danger">{errorMessage(parallel.error)}</p>
        ) : (
          <AvailabilityAlert
            racers={racers}
            minutes={minutes}
            found={starts.length > 0}
            available={new Set(starts.flatMap((s) => s.seatIds)).size}
          />
        )}
        <StartTimes starts={starts} racers={racers} minutes={minutes} onPick={pickStart} />
        {seats.isPending ? (
          <SpinnerScreen label="Loading simulators…" />
        ) : seats.isError ? (
          <p className="text-danger">{errorMessage(seats.error)}</p>
        ) : !gridSeats.length ? (
          <p>No simulators match the chosen types at this location.</p>
        ) : (
          <SlotGrid
            date={date}
            seats={gridSeats}
            availability={availBySeat}
            selected={chosenKeys}
            now={now}
            onToggle={toggle}
            onNotify={
              // The waitlist counts every seat type: with some types left out, a full grid
              // may still leave a seat free (the server would refuse).
              !everyType
                ? undefined
                : (slot) =>
                    location &&
                    joinWaitlist.mutate(
                      { location: location.id, slot },
                      {
                        onSuccess: () =>
                          showAlert(
                            `We will e-mail you when a seat frees up at ${formatSlotTime(slot)}.`,
                            'success',
                          ),
                        onError: (error) => showError(error),
                      },
                    )
            }
          />
        )}
      </>
    );
  }

  return (
    <>
      <VenueHeaderImage />
      <PageTitle>Book a Simulator</PageTitle>
      <ClubAlert />
      {/* The filters wait for the simulator types: their checkboxes appearing later pushed the
          calendar and, on a phone, the results down (layout shift, issue 14). Bootstrap's
          classes rather than Row, Col and Card: less code before the first paint. */}
      {types.isPending ? (
        <SpinnerScreen label="Loading…" />
      ) : (
        <div className="row g-4">
          <div className="col-lg-4 col-xl-3">
            <div className="card">
              <div className="card-body">
                <h2 className="visually-hidden">Search</h2>
                <BookingFilters
                  locations={list}
                  location={location?.id}
                  onLocation={chooseLocation}
                  types={types.data ?? []}
                  chosenTypes={chosenTypes}
                  onTypes={setChosenTypes}
                  racers={racers}
                  maxRacers={maxRacers}
                  onRacers={setRacers}
                  minutes={minutes}
                  onMinutes={setMinutes}
                />
                {/* The calendar's place is kept while it loads: on a phone the results sit
                  under it and would jump down (layout shift, issue 14). */}
                <div className="booking-date-slot">
                  {location && (
                    <Suspense fallback={<SpinnerScreen label="Loading calendar…" />}>
                      <BookingDatePicker
                        label="Date"
                        value={date}
                        first={today}
                        last={lastDate}
                        onChange={setPickedDate}
                      />
                    </Suspense>
                  )}
                </div>
              </div>
            </div>
          </div>
          <div className="col-lg-8 col-xl-9">
            <h2 className="h4">{formatSlotDate(`${date}T00:00`)}</h2>
            {location && browserZoneDiffers(zone) && (
              <p className="small text-body-secondary">
                Times are in {location.name}&rsquo;s time zone ({zone}).
              </p>
            )}
            {resultsShown || !location ? (
              results
            ) : (
              <SpinnerScreen label="Searching for simulators…" />
            )}
          </div>
        </div>
      )}
      <StickyBottomBar className="paddock-checkout-bar mt-3">
        <div className="d-flex align-items-center justify-content-between gap-2">
          <span aria-live="polite">
            {count === 0 ? 'No times selected' : `${countOf(count, SLOTS)} selected`}
            {tooShort && <span className="d-block small text-danger">{tooShort}</span>}
          </span>
          <div className="d-flex gap-2">
            {count > 0 && (
              <Button variant="outline-secondary" onClick={() => setChosen(new Map())}>
                Clear
              </Button>
            )}
            <Button onClick={openCheckout} disabled={count === 0 || !!tooShort || quote.isPending}>
              {quote.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              Checkout
            </Button>
          </div>
        </div>
      </StickyBottomBar>
      {checkout && (
        <Suspense fallback={null}>
          <CheckoutModal
            checkout={checkout}
            taxRatePercent={location?.sales_tax_rate_percent}
            onClose={() => setCheckout(null)}
            onStale={refresh}
            onBooked={() => setChosen(new Map())}
          />
        </Suspense>
      )}
    </>
  );
}
