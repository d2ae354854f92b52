import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Party } from '@paddock/contract/races';
import { useUpdateParty } from '../api/parties-api';
import { startField, startInstant } from '../lib/party-start';
import { PartyStartField } from './party-start-field';

/** A waiting party's start, edited in its card: a later time, or Now (it starts at once). */
export function PartyStartForm({
  party,
  zone,
  onDone,
}: {
  party: Party;
  zone: string;
  onDone: () => void;
}) {
  const [value, setValue] = useState(startField(party.starts_at, zone));
  const update = useUpdateParty(onDone);
  return (
    <Form
      className="d-flex flex-wrap gap-2 align-items-end"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ party, body: { starts_at: startInstant(value, zone) } });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
    >
      <PartyStartField
        id={`party-${party.id}-start`}
        label={`New start of ${party.name}`}
        value={value}
        zone={zone}
        onChange={setValue}
      />
      <Button size="sm" type="submit" disabled={update.isPending}>
        Save Start
      </Button>
      <Button size="sm" variant="secondary" onClick={onDone}>
        Cancel
      </Button>
    </Form>
  );
}
