import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import type { Calendar } from '@paddock/contract/calendars';
import {
  HOST_SIGNALS,
  loadStateOf,
  startProblem,
  type HostSignal,
  type Party,
  type RaceEvent,
} from '@paddock/contract/races';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { useCurrentUser } from '../../../lib/current-user';
import { pathTo } from '../../../lib/routes';
import { locationsQuery } from '../../../lib/locations-query';
import { useVenueTime } from '../../../lib/venue-time';
import { partiesQuery, seatsQuery, useLiveParties } from '../../../lib/api/parties-queries';
import { startsLabel } from '../../../lib/party-starts-label';
import { EntryCar, EventSummary } from '../../../components/race-event/event-summary';
import { LiveStatus } from '../../../components/race-event/live-status';
import { LoadStateBadge } from '../../../components/race-event/load-state-badge';
import { noRigLine, RigBadge } from '../../../components/race-event/rig-badge';
import { SIGNAL_LABELS, SignalButtons } from '../components/signal-buttons';
import {
  useEventSocket,
  type SocketMessage,
} from '../../../components/race-event/use-event-socket';
import { OutOfServiceBadge } from '../../../components/out-of-service-badge';
import { LocationSelect } from '../../../components/location-select';

/**
 * Launcher (spec staff §2, §4): every seat of a location with its event and live load state,
 * parties together under their shared event, and the host signals per party and per seat.
 * Each event follows its socket; a dropped socket shows as disconnected and comes back by itself.
 */
export default function LauncherScreen() {
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const locations = useQuery(locationsQuery);
  const asked = Number(params.get('location')) || null;
  const location =
    asked ?? (user.data ? (user.data.location ?? locations.data?.[0]?.id ?? null) : null);
  const seats = useQuery(seatsQuery(location));
  const parties = useQuery({ ...partiesQuery(location), enabled: location !== null });
  useLiveParties();
  const venueZone = useVenueTime().zone;
  const zone = locations.data?.find((l) => l.id === location)?.timezone ?? venueZone;
  // A party set up for later is listed apart: until its time its seats run their own events.
  const list = (parties.data ?? []).filter((p) => p.started);
  const later = (parties.data ?? []).filter((p) => !p.started);
  const inParty = new Set(list.flatMap((p) => p.members.map((m) => m.calendar)));
  const solo = (seats.data ?? []).filter((s) => !inParty.has(s.id) && s.event !== null);
  // Which events' sockets are down, by name, for one clear line above everything.
  const [down, setDown] = useState<Map<string, boolean>>(new Map());
  const report = useCallback(
    (name: string, disconnected: boolean) =>
      setDown((current) => {
        if ((current.get(name) ?? false) === disconnected) return current;
        const next = new Map(current);
        next.set(name, disconnected);
        return next;
      }),
    [],
  );
  const downNames = [...down].filter(([, d]) => d).map(([name]) => name);

  return (
    <>
      <PageTitle>Launcher</PageTitle>
      <div className="d-flex flex-wrap gap-3 align-items-end mb-3">
        <LocationSelect id="launcher-location" value={location} />
        <Link to={pathTo('adminParties', {}, { location })} className="ms-md-auto">
          Manage parties
        </Link>
      </div>
      {downNames.length > 0 && (
        <Alert variant="danger" className="py-2">
          Live updates are disconnected for {downNames.join(', ')}. Reconnecting every 2 seconds;
          states shown may be out of date.
        </Alert>
      )}
      {(seats.isPending || parties.isPending) && location !== null && <SpinnerScreen />}
      {(seats.isError || parties.isError) && (
        <Alert variant="danger">
          The launcher could not be loaded. Reload the page to try again.
        </Alert>
      )}
      {seats.isSuccess && parties.isSuccess && (
        <>
          <section aria-labelledby="launcher-parties" className="mb-4">
            <h2 id="launcher-parties" className="h4">
              Parties
            </h2>
            {list.length === 0 && (
              <p className="text-body-secondary">
                No parties right now.{' '}
                <Link to={pathTo('adminParties', {}, { location })}>Create one</Link> to race
                several seats together.
              </p>
            )}
            <div className="row row-cols-1 row-cols-xl-2 g-3">
              {list.map((party) => (
                <div className="col" key={party.id}>
                  <PartyPanel party={party} onLive={report} />
                </div>
              ))}
            </div>
          </section>
          {later.length > 0 && (
            <section aria-labelledby="launcher-later" className="mb-4">
              <h2 id="launcher-later" className="h4">
                Later
              </h2>
              <ListGroup as="ul">
                {later.map((party) => (
                  <ListGroup.Item as="li" key={party.id}>
                    <strong>{party.name}</strong> {startsLabel(party, zone)}:{' '}
                    {party.members.map((m) => m.calendar_name).join(', ')}
                  </ListGroup.Item>
                ))}
              </ListGroup>
            </section>
          )}
          <section aria-labelledby="launcher-seats">
            <h2 id="launcher-seats" className="h4">
              Single seats
            </h2>
            {solo.length === 0 && <p className="text-body-secondary">Every seat is in a party.</p>}
            <div className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3">
              {solo.map((seat) => (
                <div className="col" key={seat.id}>
                  <SeatPanel seat={seat} onLive={report} />
                </div>
              ))}
            </div>
          </section>
        </>
      )}
    </>
  );
}

/** The last host signal (or peer message) this event's socket relayed, to show it went out. */
function useLastSignal() {
  const [last, setLast] = useState<{ text: string; at: string } | null>(null);
  const time = useVenueTime();
  const onMessage = (message: SocketMessage) => {
    const at = time.nowWithSeconds();
    if (message.type === 'signal' && HOST_SIGNALS.includes(message.signal as HostSignal)) {
      const signal = message.signal as HostSignal;
      setLast({ text: `${SIGNAL_LABELS[signal].label} (${signal})`, at });
    } else if (message.type === 'server') {
      setLast({ text: 'Message from a rig', at });
    }
  };
  return { last, onMessage };
}

/** Before Start: which seats it would not reach (no rig agent holds the event's socket). */
function NoRig({ line }: { line: string | null }) {
  if (!line) return null;
  return <p className="small text-warning-emphasis mt-1 mb-0">{line}</p>;
}

function LastSignal({ last }: { last: { text: string; at: string } | null }) {
  if (!last) return null;
  return (
    <p className="small text-body-secondary mb-0">
      Last signal: {last.text} at {last.at}
    </p>
  );
}

type OnLive = (name: string, disconnected: boolean) => void;

/** Tells the screen whether this panel's socket is down (and forgets it when it goes away). */
function useReportLive(name: string, disconnected: boolean, onLive: OnLive) {
  useEffect(() => {
    onLive(name, disconnected);
  }, [name, disconnected, onLive]);
  useEffect(() => () => onLive(name, false), [name, onLive]);
}

function PartyPanel({ party, onLive }: { party: Party; onLive: OnLive }) {
  const { last, onMessage } = useLastSignal();
  const live = useEventSocket<RaceEvent>(party.host_event, { onMessage });
  useReportLive(party.name, live.status === 'disconnected', onLive);
  const event = live.event ?? party.event;
  const [left, setLeft] = useState<Set<number>>(new Set());
  const members = [...party.members].sort(
    (a, b) =>
      Number(b.is_host) - Number(a.is_host) ||
      a.calendar_name.localeCompare(b.calendar_name, undefined, { numeric: true }),
  );
  const calendars = members.map((m) => m.calendar);
  const excluded = [...left].filter((c) => calendars.includes(c));
  const titleId = `launcher-party-${party.id}`;
  return (
    <Card
      as="article"
      aria-labelledby={titleId}
      border={live.status === 'disconnected' ? 'danger' : undefined}
    >
      <Card.Header className="d-flex flex-wrap gap-2 align-items-center">
        <h3 id={titleId} className="h5 mb-0 me-auto">
          {party.name}
        </h3>
        <LiveStatus status={live.status} />
      </Card.Header>
      <Card.Body className="pb-2">
        <p className="small mb-2">
          <EventSummary event={event} />
        </p>
        {/* The race's live timing: a phone page for anyone, a wall screen for the room (0122). */}
        <p className="small mb-2 d-flex flex-wrap column-gap-3">
          <Link to={pathTo('timing', { eventId: party.host_event })}>
            Live timing of {party.name}
          </Link>
          <Link to={pathTo('timingWall', { eventId: party.host_event })}>
            Timing wall of {party.name}
          </Link>
        </p>
        <SignalButtons
          eventId={party.host_event}
          name={party.name}
          excluded={excluded}
          disabled={calendars.every((c) => left.has(c))}
          problem={startProblem(event, excluded)}
        />
        <NoRig line={noRigLine(event.entries, excluded)} />
        <LastSignal last={last} />
      </Card.Body>
      <ListGroup variant="flush" as="ul" aria-label={`Seats of ${party.name}`}>
        {members.map((member) => {
          const entry = event.entries.find((e) => e.calendar === member.calendar);
          const others = calendars.filter((c) => c !== member.calendar);
          return (
            <ListGroup.Item as="li" key={member.id}>
              <div className="d-flex flex-wrap gap-2 align-items-center">
                <Form.Check
                  id={`launch-include-${member.calendar}`}
                  className="me-auto mb-0"
                  checked={!left.has(member.calendar)}
                  onChange={(e) =>
                    setLeft((current) => {
                      const next = new Set(current);
                      if (e.target.checked) next.delete(member.calendar);
                      else next.add(member.calendar);
                      return next;
                    })
                  }
                  label={
                    <>
                      {member.calendar_name}
                      <span className="visually-hidden"> starts with the party</span>
                      {member.is_host && (
                        <Badge bg="primary" pill className="ms-2">
                          Host
                        </Badge>
                      )}
                      <OutOfServiceBadge show={member.out_of_service} />
                    </>
                  }
                />
                <EntryCar car={entry?.car ?? null} />
                <RigBadge connected={entry?.rig_connected ?? false} />
                <LoadStateBadge state={entry ? loadStateOf(entry) : 'none'} />
                {/* One seat of a party can be started alone; the other signals reach every seat. */}
                <SignalButtons
                  eventId={party.host_event}
                  name={member.calendar_name}
                  excluded={others}
                  signals={['SESSION_START']}
                  problem={startProblem(event, others)}
                  quiet
                />
              </div>
            </ListGroup.Item>
          );
        })}
      </ListGroup>
    </Card>
  );
}

function SeatPanel({ seat, onLive }: { seat: Calendar; onLive: OnLive }) {
  const { last, onMessage } = useLastSignal();
  const live = useEventSocket<RaceEvent>(seat.event, { onMessage });
  useReportLive(seat.name, live.status === 'disconnected', onLive);
  const entry = live.event?.entries.find((e) => e.calendar === seat.id);
  const titleId = `launcher-seat-${seat.id}`;
  return (
    <Card
      as="article"
      aria-labelledby={titleId}
      className="h-100"
      border={live.status === 'disconnected' ? 'danger' : undefined}
    >
      <Card.Header className="d-flex flex-wrap gap-2 align-items-center">
        <h3 id={titleId} className="h6 mb-0 me-auto">
          {seat.name}
        </h3>
        {entry && <RigBadge connected={entry.rig_connected} />}
        <LoadStateBadge state={entry ? loadStateOf(entry) : 'none'} />
        <LiveStatus status={live.status} />
      </Card.Header>
      <Card.Body>
        <p className="small mb-2">
          {live.event ? (
            <>
              <EventSummary event={live.event} /> · <EntryCar car={entry?.car ?? null} />
            </>
          ) : (
            'Waiting for the event…'
          )}
        </p>
        {seat.event !== null && (
          <SignalButtons
            eventId={seat.event}
            name={seat.name}
            problem={live.event ? startProblem(live.event) : null}
          />
        )}
        <LastSignal last={last} />
      </Card.Body>
    </Card>
  );
}
