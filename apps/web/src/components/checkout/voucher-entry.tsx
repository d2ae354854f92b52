import { useId, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';

type Props = {
  /** The code in the current quote, if any. */
  applied: string | null;
  /** Re-prices with the code; resolves false when the code was refused (the field empties). */
  onApply: (code: string) => Promise<boolean>;
  onRemove: () => void;
  disabled?: boolean;
};

/**
 * Discount code entry (staff §5): Apply is disabled while the field is empty, the code is
 * uppercased as it is typed, and a refused code is removed.
 */
export function VoucherEntry({ applied, onApply, onRemove, disabled }: Props) {
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const trimmed = code.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || busy) return;
    setBusy(true);
    try {
      await onApply(trimmed.toUpperCase());
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (applied) {
    return (
      <div className="d-flex align-items-center gap-2 mb-3">
        <span>
          Discount code <strong>{applied}</strong> applied.
        </span>
        <Button variant="link" className="p-0" onClick={onRemove} disabled={disabled}>
          Remove code
        </Button>
      </div>
    );
  }

  return (
    <Form noValidate onSubmit={submit} className="mb-3">
      <Form.Label htmlFor={id}>Discount Code</Form.Label>
      <InputGroup>
        <Form.Control
          id={id}
          value={code}
          onChange={(e) => setCode(e.target.value.toUpperCase())}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
        />
        <Button type="submit" variant="outline-primary" disabled={!trimmed || busy || disabled}>
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Apply
        </Button>
      </InputGroup>
    </Form>
  );
}
