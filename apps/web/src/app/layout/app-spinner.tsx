import { SpinnerScreen } from '../../components/spinner-screen';

/** App start (spec §2): a loading spinner, then the nav, body and footer. */
export function AppSpinner() {
  return (
    <div className="min-vh-100 d-flex align-items-center justify-content-center">
      <SpinnerScreen label="Loading Paddock…" />
    </div>
  );
}
