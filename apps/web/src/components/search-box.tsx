import Form from 'react-bootstrap/Form';

type Props = { id: string; value: string; onChange: (value: string) => void; label?: string };

/** The keywords filter of the catalogue and laps screens. */
export function SearchBox({ id, value, onChange, label = 'Keywords' }: Props) {
  return (
    <Form.Group controlId={id} className="flex-grow-1" style={{ minWidth: '12rem' }}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <Form.Control
        type="search"
        value={value}
        placeholder="Search…"
        onChange={(e) => onChange(e.target.value)}
      />
    </Form.Group>
  );
}
