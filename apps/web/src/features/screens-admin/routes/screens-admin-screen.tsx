import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { Screen, ScreenList } from '@paddock/contract/screens';
import { PageTitle } from '../../../components/page-title';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';

export const SCREENS_EMPTY =
  'No screen has checked in yet. Open a screen with ?screen= and a name in its address, e.g. /display/1?screen=Bar TV.';
/** The list follows the screens' own heartbeat (15 s). */
const REFRESH_MS = 15_000;

const seen = (iso: string) => {
  const at = DateTime.fromISO(iso);
  return { relative: at.toRelative() ?? '', absolute: at.toLocaleString(DateTime.DATETIME_MED) };
};

/** Staff: every wall screen that checked in, when it last did, and a reload for one or all. */
export default function ScreensAdminScreen() {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['screens'],
    queryFn: () => api<ScreenList>('/screens'),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['screens'] });
  const reload = useMutation({
    mutationFn: (screen: Screen | null) =>
      api('/screens/reload', { method: 'POST', body: screen ? { screen_id: screen.id } : {} }),
    onSuccess: (_, screen) =>
      showAlert(
        screen ? `${screen.name} will reload now.` : 'Every screen will reload now.',
        'success',
        5_000,
      ),
    onError: (error) => showError(error),
  });
  const forget = useMutation({
    mutationFn: (screen: Screen) => api(`/screens/${screen.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
    onError: (error) => showError(error),
  });
  const screens = list.data?.results ?? [];

  return (
    <>
      <PageTitle>Wall Screens</PageTitle>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <Button
          onClick={() => reload.mutate(null)}
          disabled={reload.isPending || !screens.some((s) => s.online)}
        >
          Reload All Screens
        </Button>
      </div>
      {list.isSuccess && screens.length === 0 && <p>{SCREENS_EMPTY}</p>}
      {screens.length > 0 && (
        <Table responsive size="sm" className="align-middle">
          <thead>
            <tr>
              <th scope="col">Screen</th>
              <th scope="col">Showing</th>
              <th scope="col">Status</th>
              <th scope="col">Last check-in</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {screens.map((screen) => {
              const last = seen(screen.last_seen);
              const outdated = Boolean(
                list.data?.build && screen.build && screen.build !== list.data.build,
              );
              return (
                <tr key={screen.id}>
                  <th scope="row">{screen.name}</th>
                  <td className="text-break">
                    <a href={screen.path} target="_blank" rel="noreferrer">
                      {screen.path}
                    </a>
                  </td>
                  <td>
                    <Badge bg={screen.online ? 'success' : 'secondary'}>
                      {screen.online ? 'Online' : 'Offline'}
                    </Badge>{' '}
                    {outdated && (
                      <Badge bg="warning" text="dark">
                        Old build
                      </Badge>
                    )}
                  </td>
                  <td>
                    <time dateTime={screen.last_seen} title={last.absolute}>
                      {last.relative}
                    </time>
                  </td>
                  <td className="text-end text-nowrap">
                    <Button
                      size="sm"
                      variant="outline-primary"
                      className="me-2"
                      disabled={!screen.online || reload.isPending}
                      onClick={() => reload.mutate(screen)}
                    >
                      Reload<span className="visually-hidden"> {screen.name}</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={forget.isPending}
                      onClick={() => forget.mutate(screen)}
                    >
                      Forget<span className="visually-hidden"> {screen.name}</span>
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </>
  );
}
