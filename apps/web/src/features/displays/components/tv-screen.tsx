import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { isScreenName, isScreenPath } from '@paddock/contract/screen-rules';
import { useChangeFeed, type Change, type Hello } from '../../../lib/use-change-feed';
import { useScreenWakeLock } from '../hooks/use-screen-wake-lock';
import { useBurnInDrift } from '../hooks/use-burn-in-drift';

/** What a wall screen follows: boards and laps, settings for prices and texts, reload orders. */
const TV_TOPICS = ['boards', 'laps', 'settings', 'screens'];
const RELOADED_FOR = 'paddock-reloaded-for-build';

/** The build this page runs: the entry script its index.html loaded (the server reads the same). */
export function pageBuild(): string | null {
  return document.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** The data a change makes stale, by topic. */
function staleKeys(change: Change): string[][] {
  switch (change.topic) {
    case 'boards':
    case 'laps':
      return [['boards']];
    case 'settings':
      return [['calendars'], ['caltypes'], ['venue', 'config'], ['rig-session']];
    case 'reservations':
      return [['rig-session']];
    default:
      return [];
  }
}

const reload = () => window.location.reload();

/**
 * A screen on a wall that nobody touches: it follows the change feed (new data at once, an
 * "offline since" badge when the server is gone, back by itself), reloads onto a new build or
 * when staff say so, keeps the display awake, drifts a few pixels against burn-in and caches
 * itself for a reload while the server is down. `?screen=Name` lists it on the staff page.
 */
export function TvScreen({
  children,
  topics = [],
  rigKey,
}: {
  children: ReactNode;
  /** Topics beyond the wall screens' own (the rig screen: its seat's reservations). */
  topics?: string[];
  /** The rig screen's key: the feed is read as that rig (decision 0120). */
  rigKey?: string;
}) {
  const client = useQueryClient();
  const location = useLocation();
  const [query] = useSearchParams();
  const [screenId, setScreenId] = useState<number | null>(null);
  const name = query.get('screen') ?? '';
  const where = `${location.pathname}${location.search}`;

  const onHello = (hello: Hello) => {
    setScreenId(hello.screen_id);
    const own = pageBuild();
    if (hello.build && own && hello.build !== own) {
      // Once per new build: a page that still gets the old one must not reload in a loop.
      if (sessionStorage.getItem(RELOADED_FOR) !== hello.build) {
        sessionStorage.setItem(RELOADED_FOR, hello.build);
        reload();
        return;
      }
    }
    // Connected (again): what the screen shows may predate the feed (a page from the offline
    // cache, a change between loading and subscribing, a gap): fetch it again.
    void client.invalidateQueries();
  };
  const { offlineSince } = useChangeFeed(
    [...TV_TOPICS, ...topics],
    (change) => {
      if (change.topic === 'screens') {
        if (change.id === null || change.id === screenId) reload();
        return;
      }
      for (const queryKey of staleKeys(change)) void client.invalidateQueries({ queryKey });
    },
    {
      screen: isScreenName(name) ? name : undefined,
      path: isScreenPath(where) ? where : undefined,
      build: pageBuild(),
      rigKey,
      onHello,
    },
  );
  useScreenWakeLock();
  const drift = useBurnInDrift();

  useEffect(() => {
    document.body.classList.add('paddock-tv-screen');
    if ('serviceWorker' in navigator)
      navigator.serviceWorker
        .register('/sw.js')
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => {
          // What this page loaded before the worker was there: its shell, assets and data.
          const sendLoaded = () =>
            registration.active?.postMessage({
              type: 'cache-screen',
              page: window.location.href,
              urls: performance.getEntriesByType('resource').map((entry) => entry.name),
            });
          sendLoaded();
          // Once the worker controls the page, the data is fetched again through it, and it
          // keeps a copy. A query still on its first fetch then is not fetched again (TanStack
          // Query lets a query without data finish its fetch), so what finished loading by the
          // time everything settled is sent once more.
          const controlled = () => {
            sendLoaded();
            void client.invalidateQueries().finally(sendLoaded);
          };
          if (navigator.serviceWorker.controller) controlled();
          else
            navigator.serviceWorker.addEventListener('controllerchange', controlled, {
              once: true,
            });
        })
        .catch(() => {
          /* no offline shell (plain http on a LAN address): everything else still works */
        });
    return () => document.body.classList.remove('paddock-tv-screen');
  }, [client]);

  return (
    <>
      <div
        className="paddock-tv-drift"
        style={{ transform: `translate(${drift.x}px, ${drift.y}px)` }}
      >
        {children}
      </div>
      {offlineSince && (
        <div className="paddock-offline-badge" role="status">
          offline since{' '}
          {offlineSince.toLocaleTimeString([], {
            hour: '2-digit',
            minute: '2-digit',
            hour12: false,
          })}
        </div>
      )}
    </>
  );
}
