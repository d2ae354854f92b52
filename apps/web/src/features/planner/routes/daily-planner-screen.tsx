import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import {
  browserZoneDiffers,
  formatSlotDate,
  formatSlotTime,
  todayIn,
} from '../../../lib/slot-format';
import { useChangeFeed } from '../../../lib/use-change-feed';
import { plannerDayQuery } from '../api/planner-api';
import { FeedLink } from '../components/feed-link';
import { focusFirstCell, PLANNER_GRID_ID, PlannerGrid } from '../components/planner-grid';
import { PlannerToolbar, storeZoom, storedZoom } from '../components/planner-toolbar';
import { UserSearch } from '../components/user-search';
import { WithSelected } from '../components/with-selected';
import { WalkInNow } from '../components/walk-in-now';
import {
  cellKey,
  entriesByCell,
  filterSeats,
  parseLocationParam,
  placeName,
  placeZone,
  rangeOfCells,
  type Cell,
} from '../lib/planner-cells';
import {
  defaultRange,
  OutOfServiceDialog,
  type OutOfServiceRange,
} from '../components/out-of-service-dialog';
import type { ALL_LOCATIONS } from '@paddock/contract/planner';

/** Daily Planner — spec staff §2: every seat of a location for one day. */
export default function DailyPlannerScreen() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [zone, setZone] = useState<string | null>(null);
  const today = todayIn(zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const date = params.get('date') ?? today;
  const location = parseLocationParam(params.get('location'));
  const [seatFilter, setSeatFilter] = useState('');
  const [zoom, setZoom] = useState(storedZoom);
  const [selected, setSelected] = useState<Map<string, Cell>>(new Map());
  const [details, setDetails] = useState<Cell | null>(null);
  // The last cell ticked: Shift-click selects from it (issue 30).
  const [anchor, setAnchor] = useState<Cell | null>(null);
  const [outOfService, setOutOfService] = useState<OutOfServiceRange | null>(null);
  const day = useQuery(plannerDayQuery(date, location));

  // Someone books, cancels or blacks out anywhere: the planner shows it without a reload.
  // On (re)connecting too: a change between loading the day and subscribing is not lost.
  const refresh = () => void client.invalidateQueries({ queryKey: ['planner'] });
  useChangeFeed(['reservations'], refresh, { auth: true, onHello: refresh });

  const data = day.data;
  if (data && placeZone(data) !== zone) setZone(placeZone(data));
  const entries = useMemo(() => (data ? entriesByCell(data) : new Map()), [data]);
  const seats = useMemo(() => (data ? filterSeats(data, seatFilter) : []), [data, seatFilter]);
  // The selection follows the data: a cell booked meanwhile shows as booked in the menu's rules.
  const cells = [...selected.values()].map((c) => ({
    ...c,
    entry: entries.get(cellKey(c.calendar, c.slot)) ?? null,
  }));

  const go = (next: { date?: string; location?: number | typeof ALL_LOCATIONS }) => {
    setSelected(new Map());
    const query = new URLSearchParams(params);
    if (next.date) query.set('date', next.date);
    if (next.location) query.set('location', String(next.location));
    setParams(query, { replace: true });
  };
  const toggle = (cell: Cell, shift: boolean) => {
    const key = cellKey(cell.calendar, cell.slot);
    if (shift && anchor && data) {
      // A range is added as a whole (ticked), as in a file list.
      const range = rangeOfCells(data.slots, entries, anchor, cell);
      setSelected((current) => {
        const next = new Map(current);
        for (const c of range) next.set(cellKey(c.calendar, c.slot), c);
        return next;
      });
    } else
      setSelected((current) => {
        const next = new Map(current);
        if (next.has(key)) next.delete(key);
        else next.set(key, cell);
        return next;
      });
    setAnchor(cell);
  };
  const openOutOfService = (seat: number) => {
    if (!data) return;
    setOutOfService(defaultRange(data, seat));
  };

  return (
    <>
      <PageTitle>Daily Planner</PageTitle>
      {/* The grid a few Tabs from the top: past the search and the toolbar in one step. */}
      {data && seats.length > 0 && (
        <a
          href={`#${PLANNER_GRID_ID}`}
          className="visually-hidden-focusable d-inline-block mb-2"
          onClick={(e) => {
            e.preventDefault();
            focusFirstCell(data, seats);
          }}
        >
          Skip to the planner grid
        </a>
      )}
      <UserSearch />
      <PlannerToolbar
        date={date}
        today={today}
        onDate={(d) => go({ date: d })}
        day={data}
        location={location}
        onLocation={(id) => go({ location: id })}
        seatFilter={seatFilter}
        onSeatFilter={setSeatFilter}
        zoom={zoom}
        onZoom={(z) => {
          setZoom(z);
          storeZoom(z);
        }}
        onRefresh={() => void day.refetch()}
        refreshing={day.isFetching}
      />
      {data && browserZoneDiffers(placeZone(data)) && (
        <Alert variant="warning" className="py-2">
          Times are in {placeName(data)}&rsquo;s time zone ({placeZone(data)}), not this
          device&rsquo;s.
        </Alert>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        <h2 className="h5 mb-0 me-auto">{formatSlotDate(`${date}T00:00`)}</h2>
        {data && <WalkInNow day={data} />}
        {data && (
          <WithSelected
            day={data}
            cells={cells}
            onDone={() => setSelected(new Map())}
            onOutOfService={setOutOfService}
          />
        )}
        <FeedLink />
      </div>
      {day.isPending && <SpinnerScreen />}
      {day.isError && <Alert variant="danger">The planner could not be loaded. Try Refresh.</Alert>}
      {data && data.slots.length === 0 && <p>{placeName(data)} is closed on this date.</p>}
      {data && seats.length === 0 && data.seats.length > 0 && <p>No seat matches the filter.</p>}
      {data && data.slots.length > 0 && seats.length > 0 && (
        <PlannerGrid
          day={data}
          seats={seats}
          entries={entries}
          zoom={zoom}
          selected={new Set(selected.keys())}
          onToggle={toggle}
          onDetails={setDetails}
          onOutOfService={openOutOfService}
        />
      )}
      {data && outOfService && (
        <OutOfServiceDialog
          day={data}
          initial={outOfService}
          onClose={() => setOutOfService(null)}
          onDone={() => {
            setOutOfService(null);
            setSelected(new Map());
          }}
        />
      )}
      <Modal
        aria-labelledby="planner-modal-7"
        show={details !== null}
        onHide={() => setDetails(null)}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-7" className="h5">
            Blackout
          </Modal.Title>
        </Modal.Header>
        {details?.entry && (
          <Modal.Body>
            <dl className="row mb-0">
              <dt className="col-4">Created by</dt>
              <dd className="col-8">{details.entry.created_by_name ?? '—'}</dd>
              <dt className="col-4">Time</dt>
              <dd className="col-8">{formatSlotTime(details.slot)}</dd>
              <dt className="col-4">Seat</dt>
              <dd className="col-8">{data?.seats.find((s) => s.id === details.calendar)?.name}</dd>
              <dt className="col-4">Notes</dt>
              <dd className="col-8">{details.entry.notes || '—'}</dd>
            </dl>
          </Modal.Body>
        )}
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setDetails(null)}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
