import { PlainAlert } from './plain-alert';
import { dismissAlert, useAlerts } from '../lib/alerts';

/**
 * The app's messages, pinned to the top of the window above any open modal.
 * Errors are announced assertively; the rest politely.
 */
export function AlertStack() {
  const alerts = useAlerts();
  return (
    <div className="paddock-alert-stack" aria-live="polite">
      {alerts.map((a) => (
        <PlainAlert
          key={a.id}
          variant={a.variant}
          dismissible
          onClose={() => dismissAlert(a.id)}
          role={a.variant === 'danger' ? 'alert' : 'status'}
          className="shadow-sm mb-2"
          closeLabel="Dismiss message"
        >
          <span style={{ whiteSpace: 'pre-line' }}>{a.message}</span>
        </PlainAlert>
      ))}
    </div>
  );
}
