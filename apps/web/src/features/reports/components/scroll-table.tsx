import type { ReactNode } from 'react';

/**
 * A table's sideways (and, with maxHeight, downward) scroller on a phone: focusable and named,
 * so a keyboard user can scroll it too (axe: scrollable-region-focusable).
 */
export function ScrollTable({
  label,
  maxHeight,
  children,
}: {
  label: string;
  maxHeight?: string;
  children: ReactNode;
}) {
  return (
    <div
      className="overflow-auto position-relative mb-3"
      style={maxHeight ? { maxHeight } : undefined}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}
