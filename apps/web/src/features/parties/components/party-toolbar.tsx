import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import SplitButton from 'react-bootstrap/SplitButton';
import { PARTY_NAME_MAX, uniquePartyName, type Party } from '@paddock/contract/races';
import type { Calendar } from '@paddock/contract/calendars';
import { useAddToParty, useCreateParty } from '../api/parties-api';
import { startInstant } from '../lib/party-start';
import { PartyStartField } from './party-start-field';

type Props = {
  /** The chosen seats in list order; the first is the host of a new party. */
  selected: Calendar[];
  parties: Party[];
  /** When a new party starts: the venue's wall time, empty for now (decision 0101). */
  start: string;
  onStart: (value: string) => void;
  zone: string;
  onDone: () => void;
};

/**
 * Create Party (a split button: at once with the default name, or named first) and Add to Party
 * (spec §5: create needs seats and a non-empty name; Add to Party needs a chosen party).
 */
export function PartyToolbar({ selected, parties, start, onStart, zone, onDone }: Props) {
  const [naming, setNaming] = useState(false);
  const [party, setParty] = useState('');
  const create = useCreateParty(() => {
    setNaming(false);
    onDone();
  });
  const add = useAddToParty(() => {
    setParty('');
    onDone();
  });
  const host = selected[0];
  // Not a copy of another party's name (issue 41): "Sim 1's Party 2" when the first is taken.
  const defaultName = host
    ? uniquePartyName(
        host.name,
        parties.map((p) => p.name),
      )
    : '';
  const chosen = parties.find((p) => String(p.id) === party);
  const createParty = (name: string) =>
    create.mutate({
      host: { calendar: host.id, name, starts_at: startInstant(start, zone) },
      others: selected.slice(1).map((s) => s.id),
    });

  return (
    <div className="d-flex flex-column gap-2">
      <PartyStartField
        id="party-start"
        label="Starts"
        value={start}
        zone={zone}
        onChange={onStart}
      />
      <SplitButton
        id="create-party"
        title="Create Party"
        disabled={selected.length === 0 || create.isPending}
        toggleLabel="More ways to create a party"
        onClick={() => createParty(defaultName)}
      >
        <Dropdown.Item as="button" type="button" onClick={() => setNaming(true)}>
          Create Party with a Name…
        </Dropdown.Item>
      </SplitButton>
      <Form
        className="d-flex gap-2 align-items-end"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) add.mutate({ party: chosen, calendars: selected.map((s) => s.id) });
        }}
      >
        <Form.Group controlId="add-to-party" className="flex-grow-1">
          <Form.Label className="small mb-1">Party</Form.Label>
          <Form.Select size="sm" value={party} onChange={(e) => setParty(e.target.value)}>
            <option value="">Choose a party</option>
            {parties.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button
          type="submit"
          size="sm"
          variant="outline-primary"
          className="text-nowrap"
          disabled={!chosen || selected.length === 0 || add.isPending}
        >
          Add to Party
        </Button>
      </Form>
      {naming && host && (
        <NameDialog
          defaultName={defaultName}
          seats={selected}
          pending={create.isPending}
          onClose={() => setNaming(false)}
          onCreate={createParty}
        />
      )}
    </div>
  );
}

function NameDialog({
  defaultName,
  seats,
  pending,
  onClose,
  onCreate,
}: {
  defaultName: string;
  seats: Calendar[];
  pending: boolean;
  onClose: () => void;
  onCreate: (name: string) => void;
}) {
  const [name, setName] = useState(defaultName);
  return (
    <Modal show onHide={onClose} aria-labelledby="party-name-title">
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) onCreate(name.trim());
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="party-name-title" className="h5">
            Create Party
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="party-name">
            <Form.Label>Party name</Form.Label>
            <Form.Control
              value={name}
              maxLength={PARTY_NAME_MAX}
              required
              autoFocus
              isInvalid={name.trim() === ''}
              aria-describedby="party-name-help"
              onChange={(e) => setName(e.target.value)}
            />
            <Form.Control.Feedback type="invalid">
              Enter a name for the party.
            </Form.Control.Feedback>
          </Form.Group>
          <p id="party-name-help" className="small text-body-secondary mt-2 mb-0">
            Host: {seats[0].name}
            {seats.length > 1 && (
              <>
                ; also{' '}
                {seats
                  .slice(1)
                  .map((s) => s.name)
                  .join(', ')}
              </>
            )}
            .
          </p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={name.trim() === '' || pending}>
            Create
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
