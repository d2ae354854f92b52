import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { earliestStart } from '../lib/party-start';

type Props = {
  id: string;
  label: string;
  /** The venue's wall time (`2026-11-27T19:00`); empty: now. */
  value: string;
  zone: string;
  onChange: (value: string) => void;
};

/** When a party starts: "Now" (empty) or a time today or later on the venue's clock (0101). */
export function PartyStartField({ id, label, value, zone, onChange }: Props) {
  return (
    <Form.Group controlId={id}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <div className="d-flex flex-wrap gap-2">
        <Form.Control
          type="datetime-local"
          size="sm"
          style={{ flex: '1 1 11rem', minWidth: 0, width: 'auto' }}
          value={value}
          min={earliestStart(zone)}
          aria-describedby={`${id}-help`}
          onChange={(e) => onChange(e.target.value)}
        />
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={!value}
          aria-pressed={!value}
          onClick={() => onChange('')}
        >
          Now
        </Button>
      </div>
      <Form.Text id={`${id}-help`} className="small">
        {value ? `Venue time (${zone}).` : 'Starts now. Or choose a time today or later.'}
      </Form.Text>
    </Form.Group>
  );
}
