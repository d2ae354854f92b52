import type { HTMLAttributes } from 'react';

type Props = HTMLAttributes<HTMLDivElement> & {
  variant?: string;
  dismissible?: boolean;
  onClose?: () => void;
  closeLabel?: string;
};

/**
 * Bootstrap's alert as react-bootstrap's `Alert` renders it (same classes, `role="alert"`
 * unless given, the close button first), without its Fade transition: that brings
 * react-transition-group and dom-helpers onto the first paint of every page (decision 0048).
 * A dismissed alert goes at once, as the caller removes it.
 */
export function PlainAlert({
  variant = 'primary',
  dismissible,
  onClose,
  closeLabel = 'Close alert',
  className,
  children,
  ...props
}: Props) {
  const role = 'role' in props ? props.role : 'alert';
  return (
    <div
      {...props}
      role={role}
      className={[
        className,
        'fade show alert',
        `alert-${variant}`,
        dismissible && 'alert-dismissible',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {dismissible && (
        <button type="button" className="btn-close" aria-label={closeLabel} onClick={onClose} />
      )}
      {children}
    </div>
  );
}
