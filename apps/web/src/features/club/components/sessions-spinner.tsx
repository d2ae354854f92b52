import { useId, useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { CLUB_MAX_SESSIONS, minimumSessionsMessage } from '@paddock/contract/club';
import { normalizeSessions } from '../club-rules';

type Props = {
  /** Always a valid count: the spinner reports only those. */
  value: number;
  onChange: (sessions: number) => void;
  min: number;
  max?: number;
  disabled?: boolean;
};

/**
 * The club's sessions-per-month spinner (staff spec §5): whole numbers from `min` to 100;
 * 0 snaps back to the minimum at once, anything else out of range when the field is left.
 * The note 'Minimum of N sessions per month required to join' (the spec's 'Minumum' fixed: issue 30)
 * stays under the field and turns red while the typed value is below it.
 */
export function SessionsSpinner({
  value,
  onChange,
  min,
  max = CLUB_MAX_SESSIONS,
  disabled,
}: Props) {
  const id = useId();
  const [text, setText] = useState(String(value));
  // A new value from outside (a pre-fill) replaces what is shown.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(String(value));
  }

  const set = (sessions: number) => {
    setText(String(sessions));
    if (sessions !== value) onChange(sessions);
  };

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const raw = event.target.value;
    const number = Number(raw);
    if (raw.trim() !== '' && number === 0) {
      set(min);
      return;
    }
    setText(raw);
    if (raw.trim() !== '' && Number.isInteger(number) && number >= min && number <= max) {
      onChange(number);
    }
  };

  const typed = Number(text);
  const invalid = text.trim() !== '' && (!Number.isInteger(typed) || typed < min || typed > max);

  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>Sessions per month</Form.Label>
      <InputGroup className="paddock-sessions-spinner" hasValidation>
        <Button
          variant="outline-secondary"
          aria-label="Fewer sessions"
          aria-controls={id}
          disabled={disabled || value <= min}
          onClick={() => set(normalizeSessions(value - 1, min))}
        >
          −
        </Button>
        <Form.Control
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={text}
          onChange={onInput}
          onBlur={() => set(normalizeSessions(Number(text), min))}
          isInvalid={invalid}
          aria-describedby={`${id}-note`}
          disabled={disabled}
          className="text-center"
        />
        <Button
          variant="outline-secondary"
          aria-label="More sessions"
          aria-controls={id}
          disabled={disabled || value >= max}
          onClick={() => set(Math.min(max, value + 1))}
        >
          +
        </Button>
      </InputGroup>
      <Form.Text id={`${id}-note`} className={`d-block ${invalid ? 'text-danger' : ''}`}>
        {minimumSessionsMessage(min)}
      </Form.Text>
    </Form.Group>
  );
}
