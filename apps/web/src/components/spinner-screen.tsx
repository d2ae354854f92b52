import Spinner from 'react-bootstrap/Spinner';

/** A centred loading spinner with a name for screen readers. */
export function SpinnerScreen({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="d-flex justify-content-center align-items-center py-5" role="status">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
