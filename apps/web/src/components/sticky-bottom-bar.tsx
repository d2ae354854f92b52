import { useEffect, useRef, type ReactNode } from 'react';

/** The CSS variable the message stack reads to sit above a bar stuck to the window's bottom. */
const BOTTOM_BAR = '--paddock-bottom-bar';

/**
 * A bar stuck to the bottom of the window (the booking screen's Checkout, a long form's Save).
 * On touch-sized screens the messages sit at the bottom (issue 30: at the top they covered the
 * page title), so this bar publishes its height and the messages rise above it.
 */
export function StickyBottomBar({
  className,
  children,
}: {
  className: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty(BOTTOM_BAR, `${bar.offsetHeight}px`),
    );
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty(BOTTOM_BAR);
    };
  }, []);
  return (
    <div ref={ref} className={`sticky-bottom bg-body border-top py-2 ${className}`}>
      {children}
    </div>
  );
}
