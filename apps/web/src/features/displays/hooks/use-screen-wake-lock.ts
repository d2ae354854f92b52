import { useEffect } from 'react';

/**
 * Keeps the display from sleeping (Screen Wake Lock, where the browser has it). The browser
 * drops the lock when the page is hidden, so it is asked for again when the page shows.
 */
export function useScreenWakeLock() {
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let done = false;
    const request = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock
        .request('screen')
        .then((sentinel) => {
          if (done) void sentinel.release();
          else lock = sentinel;
        })
        .catch(() => {
          /* refused (battery saver, no permission): the screen's own settings decide */
        });
    };
    request();
    document.addEventListener('visibilitychange', request);
    return () => {
      done = true;
      document.removeEventListener('visibilitychange', request);
      void lock?.release().catch(() => {});
    };
  }, []);
}
