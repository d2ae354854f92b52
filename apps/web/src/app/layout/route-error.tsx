import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PlainAlert } from '../../components/plain-alert';
import Button from 'react-bootstrap/Button';
import { errorMessage } from '../../lib/error-message';
import { FORBIDDEN_STATUS, type Access } from '../route-access';
import { SpinnerScreen } from '../../components/spinner-screen';

// On demand: a refused screen is rare, and the permission labels it names are not small
// (issue 46, decision 0126).
const ForbiddenScreen = lazy(() =>
  import('../screens/forbidden-screen').then((m) => ({ default: m.ForbiddenScreen })),
);

/** A screen that failed to load or render: say so and offer a reload; nav and footer stay. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === FORBIDDEN_STATUS)
    return (
      <Suspense fallback={<SpinnerScreen />}>
        <ForbiddenScreen access={error.data as Access | undefined} />
      </Suspense>
    );
  return (
    <section>
      <h1 className="h2">Something went wrong</h1>
      <PlainAlert variant="danger">{errorMessage(error)}</PlainAlert>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </section>
  );
}
