import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { NO_PARTIES_HINT, NO_PARTIES_TITLE } from '@paddock/contract/races';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { useCurrentUser } from '../../../lib/current-user';
import { locationsQuery } from '../../../lib/locations-query';
import { useVenueTime } from '../../../lib/venue-time';
import { startsLabel } from '../../../lib/party-starts-label';
import { partiesQuery, seatsQuery, useLiveParties } from '../../../lib/api/parties-queries';
import { PartyCard } from '../components/party-card';
import { PartyToolbar } from '../components/party-toolbar';

/**
 * Party admin page (spec staff §2): the location's seats on the left to choose from, Create
 * Party and Add to Party, and the party cards on the right. `?location=` chooses the location,
 * else the staff member's own, else the first.
 */
export default function PartyAdminScreen() {
  const [params, setParams] = useSearchParams();
  const user = useCurrentUser();
  const locations = useQuery(locationsQuery);
  const asked = Number(params.get('location')) || null;
  const location =
    asked ?? (user.data ? (user.data.location ?? locations.data?.[0]?.id ?? null) : null);
  const seats = useQuery(seatsQuery(location));
  const parties = useQuery({ ...partiesQuery(location), enabled: location !== null });
  useLiveParties();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [start, setStart] = useState('');
  const venueZone = useVenueTime().zone;
  const zone = locations.data?.find((l) => l.id === location)?.timezone ?? venueZone;

  const list = parties.data ?? [];
  // A seat in a started party cannot join another now; a party set up for later may take it.
  const partyOf = new Map(
    list.filter((p) => p.started).flatMap((p) => p.members.map((m) => [m.calendar, p] as const)),
  );
  const laterOf = (seat: number) =>
    list.filter((p) => !p.started && p.members.some((m) => m.calendar === seat));
  const busy = (seat: number) => !start && partyOf.has(seat);
  const chosen = (seats.data ?? []).filter((s) => selected.has(s.id) && !busy(s.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <PageTitle>Parties</PageTitle>
      {(locations.data?.length ?? 0) > 1 && (
        <Form.Group controlId="party-location" className="mb-3" style={{ maxWidth: '20rem' }}>
          <Form.Label>Location</Form.Label>
          <Form.Select
            value={location ?? ''}
            onChange={(e) => {
              setSelected(new Set());
              setParams({ location: e.target.value }, { replace: true });
            }}
          >
            {locations.data?.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <div className="row g-3">
        <div className="col-12 col-md-5 col-lg-4">
          <Card as="section" aria-labelledby="party-seats-title">
            <Card.Header>
              <h2 id="party-seats-title" className="h5 mb-0">
                Seats
              </h2>
            </Card.Header>
            <Card.Body>
              {seats.isPending && location !== null && <SpinnerScreen />}
              {seats.isError && <Alert variant="danger">The seats could not be loaded.</Alert>}
              {seats.data && (
                <fieldset className="mb-3">
                  <legend className="visually-hidden">Choose seats</legend>
                  {seats.data.length === 0 && <p className="mb-0">This location has no seats.</p>}
                  {seats.data.map((seat) => {
                    const party = partyOf.get(seat.id);
                    return (
                      <Form.Check
                        key={seat.id}
                        id={`party-seat-${seat.id}`}
                        className="py-1"
                        disabled={busy(seat.id)}
                        checked={selected.has(seat.id) && !busy(seat.id)}
                        onChange={() => toggle(seat.id)}
                        label={
                          <>
                            {seat.name}
                            {party && (
                              <Badge bg="light" text="dark" className="ms-2 fw-normal">
                                in {party.name}
                              </Badge>
                            )}
                            {laterOf(seat.id).map((later) => (
                              <Badge
                                key={later.id}
                                bg="light"
                                text="dark"
                                className="ms-2 fw-normal text-wrap text-start"
                              >
                                {later.name}: {startsLabel(later, zone)}
                              </Badge>
                            ))}
                          </>
                        }
                      />
                    );
                  })}
                </fieldset>
              )}
              <PartyToolbar
                selected={chosen}
                parties={list}
                start={start}
                onStart={setStart}
                zone={zone}
                onDone={() => {
                  setSelected(new Set());
                  setStart('');
                }}
              />
            </Card.Body>
          </Card>
        </div>
        <div className="col-12 col-md-7 col-lg-8">
          {parties.isPending && location !== null && <SpinnerScreen />}
          {parties.isError && <Alert variant="danger">The parties could not be loaded.</Alert>}
          {parties.isSuccess && list.length === 0 && (
            <div className="text-center text-body-secondary border rounded p-4">
              <p className="fs-5 mb-1">{NO_PARTIES_TITLE}</p>
              <p className="mb-0">{NO_PARTIES_HINT}</p>
            </div>
          )}
          {list.map((party) => (
            <PartyCard key={party.id} party={party} zone={zone} />
          ))}
        </div>
      </div>
    </>
  );
}
