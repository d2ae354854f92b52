import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import { loadStateOf, type Party, type RaceEvent } from '@paddock/contract/races';
import { EventEditModal } from '../../../components/race-event/event-edit-modal';
import { EventSummary } from '../../../components/race-event/event-summary';
import { LiveStatus } from '../../../components/race-event/live-status';
import { LoadStateBadge } from '../../../components/race-event/load-state-badge';
import { useEventSocket } from '../../../components/race-event/use-event-socket';
import { useDeleteParty, useRemoveMember } from '../api/parties-api';
import { startsLabel } from '../../../lib/party-starts-label';
import { PartyRenameForm } from './party-rename-form';
import { PartyStartForm } from './party-start-form';
import { OutOfServiceBadge } from '../../../components/out-of-service-badge';

/**
 * One party: its members (host first, marked) with each seat's load state, live from the
 * event's socket; Edit Event opens the event-edit modal; the party can be renamed, members
 * removed and the party deleted.
 */
export function PartyCard({ party, zone }: { party: Party; zone: string }) {
  const [editing, setEditing] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [moving, setMoving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const live = useEventSocket<RaceEvent>(party.host_event);
  const event = live.event ?? party.event;
  const remove = useRemoveMember();
  const destroy = useDeleteParty();
  const members = [...party.members].sort(
    (a, b) =>
      Number(b.is_host) - Number(a.is_host) ||
      a.calendar_name.localeCompare(b.calendar_name, undefined, { numeric: true }),
  );
  const titleId = `party-${party.id}-title`;

  return (
    <Card as="section" aria-labelledby={titleId} className="mb-3">
      <Card.Header className="d-flex flex-wrap gap-2 align-items-center">
        {renaming ? (
          <>
            <h2 id={titleId} className="visually-hidden">
              {party.name}
            </h2>
            <PartyRenameForm party={party} onDone={() => setRenaming(false)} />
          </>
        ) : (
          <h2 id={titleId} className="h5 mb-0 me-auto">
            {party.name}
          </h2>
        )}
        {live.status === 'disconnected' && <LiveStatus status={live.status} />}
        <div className="d-flex gap-2">
          {!renaming && (
            <Button size="sm" variant="secondary" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {party.name}</span>
            </Button>
          )}
          <Button size="sm" onClick={() => setEditing(true)}>
            Edit Event<span className="visually-hidden"> of {party.name}</span>
          </Button>
          <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete<span className="visually-hidden"> {party.name}</span>
          </Button>
        </div>
      </Card.Header>
      {!party.started && (
        <Card.Body className="py-2 small border-bottom d-flex flex-wrap gap-2 align-items-center">
          {moving ? (
            <PartyStartForm party={party} zone={zone} onDone={() => setMoving(false)} />
          ) : (
            <>
              <Badge bg="info" text="dark">
                Waiting
              </Badge>
              <span className="me-auto">
                {startsLabel(party, zone)}. Until then each seat runs its own event.
              </span>
              <Button size="sm" variant="outline-primary" onClick={() => setMoving(true)}>
                Change Start<span className="visually-hidden"> of {party.name}</span>
              </Button>
            </>
          )}
        </Card.Body>
      )}
      <Card.Body className="py-2 small">
        <EventSummary event={event} />
      </Card.Body>
      <ListGroup variant="flush" as="ul" aria-label={`Members of ${party.name}`}>
        {members.map((member) => {
          const entry = event.entries.find((e) => e.calendar === member.calendar);
          return (
            <ListGroup.Item
              as="li"
              key={member.id}
              className="d-flex flex-wrap gap-2 align-items-center"
            >
              <span className="me-auto">
                {member.calendar_name}{' '}
                {member.is_host && (
                  <Badge bg="primary" pill>
                    Host
                  </Badge>
                )}
                <OutOfServiceBadge show={member.out_of_service} />
              </span>
              <LoadStateBadge state={entry ? loadStateOf(entry) : 'none'} />
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={member.is_host || remove.isPending}
                title={member.is_host ? 'The host leaves when the party is deleted' : undefined}
                onClick={() => remove.mutate(member)}
              >
                Remove<span className="visually-hidden"> {member.calendar_name}</span>
              </Button>
            </ListGroup.Item>
          );
        })}
      </ListGroup>
      {editing && (
        <EventEditModal
          eventId={party.host_event}
          title={party.name}
          onClose={() => setEditing(false)}
        />
      )}
      <Modal
        show={confirmDelete}
        onHide={() => setConfirmDelete(false)}
        aria-labelledby={`${titleId}-delete`}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id={`${titleId}-delete`} className="h5">
            Delete {party.name}?
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          Each seat goes back to its own event. The party&rsquo;s event settings are not kept unless
          saved as a preset.
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setConfirmDelete(false)} autoFocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={destroy.isPending}
            onClick={() => destroy.mutate(party, { onSuccess: () => setConfirmDelete(false) })}
          >
            Delete Party
          </Button>
        </Modal.Footer>
      </Modal>
    </Card>
  );
}
