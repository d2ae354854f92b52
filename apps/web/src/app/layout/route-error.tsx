import { useRouteError } from 'react-router';
import { PlainAlert } from '../../components/plain-alert';
import Button from 'react-bootstrap/Button';
import { errorMessage } from '../../lib/error-message';

/** A screen that failed to load or render: say so and offer a reload; nav and footer stay. */
export function RouteError() {
  const error = useRouteError();
  return (
    <section>
      <h1 className="h2">Something went wrong</h1>
      <PlainAlert variant="danger">{errorMessage(error)}</PlainAlert>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </section>
  );
}
