import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import 'bootstrap/dist/css/bootstrap.min.css';
import './app/app.css';
import { boot } from './app/boot';
import { preloadScreens } from './app/preload-screens';
import { Providers } from './app/providers';
import { buildRoutes } from './app/routes';
import { watchSessionExpiry } from './app/session-expiry';
import { AppSpinner } from './app/layout/app-spinner';
import { BootError } from './app/layout/boot-error';
import { createQueryClient } from './lib/query-client';
import { pagesListQuery } from './features/pages/api/list-pages';

const root = createRoot(document.getElementById('root')!);
root.render(<AppSpinner />);

const client = createQueryClient();
const routes = buildRoutes();
const booting = boot(client, window.location);
// boot() has restored the stored session synchronously: the screen's code and the data it opens
// with load beside its calls; so does the top bar's list of pages (decision 0061).
preloadScreens(routes, window.location, client);
void client.prefetchQuery(pagesListQuery);
booting.then(
  (redirectTo) => {
    if (redirectTo) window.history.replaceState(null, '', redirectTo);
    // The router is made after boot so its guards see the restored session.
    const router = createBrowserRouter(routes);
    watchSessionExpiry(router, client);
    root.render(
      <StrictMode>
        <Providers client={client}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  },
  (error: unknown) => root.render(<BootError error={error} />),
);
