import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { PARTY_NAME_MAX, type Party } from '@paddock/contract/races';
import { useUpdateParty } from '../api/parties-api';

/** The party's name as a field in its card's header: Enter or Save renames, Cancel leaves it. */
export function PartyRenameForm({ party, onDone }: { party: Party; onDone: () => void }) {
  const [name, setName] = useState(party.name);
  const rename = useUpdateParty(onDone);
  const fieldId = `party-${party.id}-name`;
  return (
    <Form
      className="d-flex flex-wrap gap-2 align-items-center me-auto"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate({ party, body: { name: name.trim() } });
      }}
    >
      <Form.Label htmlFor={fieldId} className="visually-hidden">
        New name of {party.name}
      </Form.Label>
      <Form.Control
        id={fieldId}
        size="sm"
        autoFocus
        required
        maxLength={PARTY_NAME_MAX}
        value={name}
        style={{ maxWidth: '16rem' }}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone();
        }}
      />
      <Button size="sm" type="submit" disabled={!name.trim() || rename.isPending}>
        Save Name
      </Button>
      <Button size="sm" variant="secondary" onClick={onDone}>
        Cancel
      </Button>
    </Form>
  );
}
