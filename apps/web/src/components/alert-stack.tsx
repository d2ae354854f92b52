import { PlainAlert } from './plain-alert';
import { dismissAlert, useAlerts } from '../lib/alerts';

/**
 * The app's messages, above any open modal: pinned to the top of the window on a desktop, to the
 * bottom (above a StickyBottomBar) on phones and tablets, where the top is the page title (app.css).
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
          {a.action && (
            <button
              type="button"
              className="btn btn-sm btn-outline-dark ms-2"
              onClick={() => {
                dismissAlert(a.id);
                a.action?.onClick();
              }}
            >
              {a.action.label}
            </button>
          )}
        </PlainAlert>
      ))}
    </div>
  );
}
