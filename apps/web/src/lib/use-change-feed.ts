import { useEffect, useRef } from 'react';

export type Change = { seq: number; topic: string; id: number | null };

/**
 * Follows the server's change feed (`/api/events`, server-sent events). The browser's
 * EventSource reconnects by itself and sends Last-Event-ID, so nothing is missed.
 */
export function useChangeFeed(topics: string[], onChange: (change: Change) => void) {
  const handler = useRef(onChange);
  useEffect(() => {
    handler.current = onChange;
  });
  const key = topics.join(',');
  useEffect(() => {
    if (typeof EventSource === 'undefined' || key === '') return;
    const source = new EventSource(`/api/events?topics=${encodeURIComponent(key)}`);
    source.addEventListener('change', (event) => {
      try {
        handler.current(JSON.parse((event as MessageEvent<string>).data) as Change);
      } catch {
        /* not a change */
      }
    });
    return () => source.close();
  }, [key]);
}
