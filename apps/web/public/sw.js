/* Paddock's service worker: lets a wall screen (/display, /welcome, /splash) come back after a
 * browser reload while the server is down, showing the last page and data it had.
 *
 * Only requests from (or navigations to) those screens are touched, so the rest of the app
 * behaves as if there were no service worker. Pages and API data: network first, the cached
 * copy when the network fails. Built assets (/assets/*, hashed names): cache first. */

const CACHE = 'paddock-screens-v1';
/** Old builds' assets are dropped beyond this many. */
const MAX_ASSETS = 80;
const SCREEN_PATHS = /^\/(display|welcome|splash)(\/|$)/;
/** The venue configuration is read with `OPTIONS /api/`; a cache holds GETs, so it is kept under this key. */
const CONFIG_KEY = '/__venue-config__';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('paddock-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

const isScreen = (url) => SCREEN_PATHS.test(new URL(url).pathname);

async function fromScreen(event) {
  if (event.request.mode === 'navigate') return isScreen(event.request.url);
  const client = event.clientId ? await self.clients.get(event.clientId) : null;
  return Boolean(client && isScreen(client.url));
}

/**
 * The same request without the page's abort signal: the page cancels a query it refetches, and
 * a copy cut off mid-body would spoil the cached one.
 */
function detached(request) {
  if (request.mode === 'navigate') return request;
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    credentials: request.credentials,
  });
}

/** `key`: where to keep it (default: the request itself); `alsoAs`: a second key. */
async function networkFirst(request, alsoAs, key = request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(detached(request));
    if (response.ok) {
      // A failed write (quota, a broken body) must not fail the answer itself.
      await cache.put(key, response.clone()).catch(() => {});
      if (alsoAs) await cache.put(alsoAs, response.clone()).catch(() => {});
    }
    return response;
  } catch (error) {
    const cached = (await cache.match(key)) ?? (alsoAs && (await cache.match(alsoAs)));
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    const assets = (await cache.keys()).filter((r) =>
      new URL(r.url).pathname.startsWith('/assets/'),
    );
    for (const old of assets.slice(0, Math.max(0, assets.length - MAX_ASSETS)))
      await cache.delete(old);
  }
  return response;
}

/* A screen that opened before this worker controlled it sends what it loaded (its page, its
 * assets, its API data), so a reload while the server is down finds them. */
self.addEventListener('message', (event) => {
  const { type, page, urls } = event.data ?? {};
  if (type !== 'cache-screen' || typeof page !== 'string' || !isScreen(page)) return;
  const same = (u) => typeof u === 'string' && new URL(u).origin === self.location.origin;
  const wanted = (Array.isArray(urls) ? urls : []).filter(same).filter((u) => {
    const path = new URL(u).pathname;
    // `/api/` itself is the configuration, read with OPTIONS: cached separately below.
    return (
      path.startsWith('/assets/') ||
      (path.startsWith('/api/') && path !== '/api/' && path !== '/api/events')
    );
  });
  event.waitUntil(
    Promise.allSettled([
      networkFirst(new Request(page), '/__screen-shell__'),
      networkFirst(new Request('/api/', { method: 'OPTIONS' }), null, CONFIG_KEY),
      ...wanted.slice(0, 100).map((u) => networkFirst(new Request(u))),
    ]),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method === 'OPTIONS' && url.pathname === '/api/') {
    event.respondWith(
      fromScreen(event).then((screen) =>
        screen ? networkFirst(request, null, CONFIG_KEY) : fetch(request),
      ),
    );
    return;
  }
  if (request.method !== 'GET') return;
  if (url.origin !== self.location.origin || url.pathname === '/api/events') return;
  if (request.mode === 'navigate') {
    // Every screen runs the same index.html: the last one fetched serves any screen offline.
    if (isScreen(request.url)) event.respondWith(networkFirst(request, '/__screen-shell__'));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      fromScreen(event).then((screen) => (screen ? cacheFirst(request) : fetch(request))),
    );
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    event.respondWith(
      fromScreen(event).then((screen) => (screen ? networkFirst(request) : fetch(request))),
    );
  }
});
