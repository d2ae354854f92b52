import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { fakeToken, stubApi } from '../test/api-stub';
import { setToken } from '../lib/auth-store';
import { createQueryClient } from '../lib/query-client';
import { todayIn } from '../lib/slot-format';
import { preloadScreens } from './preload-screens';
import { buildRoutes } from './routes';

const at = (pathname: string, search = '') => ({ pathname, search });
const board = (id: number, calculation: 'TIME' | 'POINTS' = 'TIME') => ({ id, calculation });

/** Decision 0061: a cold load asks for the screen's opening data beside boot's calls. */
describe('preloadScreens', () => {
  it("starts the leaderboard's list and the board the path names", async () => {
    const calls = stubApi({
      'GET /api/boards': { body: [board(1), board(2)] },
      'GET /api/boards/2/results': { body: [] },
    });
    const client = createQueryClient();
    preloadScreens(buildRoutes(), at('/leaderboards/2'), client);
    await waitFor(() =>
      expect(client.getQueryData(['boards', 2, 'results', 50, null, null])).toEqual([]),
    );
    expect(calls.map((c) => `${c.path}?${c.search}`)).toEqual([
      '/api/boards?',
      '/api/boards/2/results?count=50',
    ]);
  });

  it("starts the booking screen's opening search at the customer's nearest location", async () => {
    const location = (id: number) => ({ id, name: `L${id}`, timezone: 'Europe/London' });
    const calls = stubApi({
      'GET /api/locations': {
        body: { count: 2, next: null, previous: null, results: [location(1), location(2)] },
      },
      'GET /api/locations/nearest': { body: location(2) },
      'GET /api/caltypes': { body: { count: 0, next: null, previous: null, results: [] } },
      'GET /api/calendars': {
        body: { count: 2, next: null, previous: null, results: [{ id: 5 }, { id: 6 }] },
      },
      'GET /api/calendars/parallel': { body: {} },
      'GET /api/calendars/5/avail': { body: {} },
      'GET /api/calendars/6/avail': { body: {} },
    });
    setToken(fakeToken(7));
    const client = createQueryClient();
    preloadScreens(buildRoutes(), at('/reservations/all'), client);
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/avail'))).toHaveLength(2));
    const date = todayIn('Europe/London');
    const parallel = calls.find((c) => c.path === '/api/calendars/parallel');
    expect(Object.fromEntries(parallel!.search)).toEqual({
      date,
      block: '30',
      location: '2',
      sessions: '1',
      racers: '1',
    });
    expect(calls.find((c) => c.path === '/api/calendars')!.search.get('location')).toBe('2');
  });

  it('asks for nothing on a screen the visitor may not open', async () => {
    const calls = stubApi({});
    const client = createQueryClient();
    preloadScreens(buildRoutes(), at('/reservations/all'), client);
    preloadScreens(buildRoutes(), at('/'), client);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);
  });
});
