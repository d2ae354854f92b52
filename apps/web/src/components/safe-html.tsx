import { useEffect, useState } from 'react';
import type DOMPurifyType from 'dompurify';

let purifier: typeof DOMPurifyType | null = null;
let loading: Promise<typeof DOMPurifyType> | null = null;

/**
 * DOMPurify (11 KiB gzip) is fetched beside a screen's data rather than before its first paint
 * (issue 14's initial-JS budget). A screen that may show staff HTML calls this when its module
 * loads, so the cleaner is there by the time the HTML is.
 */
export function preloadSafeHtml(): Promise<typeof DOMPurifyType> {
  loading ??= import('dompurify').then((m) => (purifier = m.default));
  return loading;
}

/** HTML written by staff (pages, board descriptions), cleaned again before it is shown. */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const [ready, setReady] = useState(purifier !== null);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void preloadSafeHtml().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [ready]);
  return (
    <div
      className={className}
      dangerouslySetInnerHTML={{ __html: purifier?.sanitize(html) ?? '' }}
    />
  );
}
