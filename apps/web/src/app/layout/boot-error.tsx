import { PlainAlert } from '../../components/plain-alert';
import Button from 'react-bootstrap/Button';
import { errorMessage } from '../../lib/error-message';

/** The server could not be reached at start: nothing can render without its configuration. */
export function BootError({ error }: { error: unknown }) {
  return (
    <main className="container py-5" style={{ maxWidth: 640 }}>
      <h1 className="h3">We could not reach the server</h1>
      <PlainAlert variant="danger">{errorMessage(error)}</PlainAlert>
      <Button onClick={() => window.location.reload()}>Try again</Button>
    </main>
  );
}
