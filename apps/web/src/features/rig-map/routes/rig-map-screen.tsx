import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import type { RigTile as Tile } from '@paddock/contract/rig-map';
import { LocationSelect } from '../../../components/location-select';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { pathTo } from '../../../lib/routes';
import { slotKeyAt } from '../../../lib/slot-format';
import { useChangeFeed } from '../../../lib/use-change-feed';
import { useNow } from '../../../lib/use-now';
import { rigMapQuery } from '../api/rig-map-api';
import { MoveDialog } from '../components/move-dialog';
import { RigTile } from '../components/rig-tile';

/**
 * The staff rig map (issue 42, decision 0127): every seat of a location as a tile, live on every
 * desk through the change feed (bookings and rigs, on any instance), the time left ticking.
 */
export default function RigMapScreen() {
  const client = useQueryClient();
  const session = useSession();
  const [params] = useSearchParams();
  const asked = Number(params.get('location')) || null;
  const map = useQuery(rigMapQuery(asked));
  const nowMs = useNow(15_000);
  const [moving, setMoving] = useState<Tile | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['rig-map'] });
  const feed = useChangeFeed(['reservations', 'rigs'], refresh, { auth: true, onHello: refresh });
  const data = map.data;
  const canSignal = hasPermission(session, 'leaderboards.can_manage_race_events');
  const canOpenCustomer =
    hasPermission(session, 'reservations.change_reservation') &&
    hasPermission(session, 'user.change_user');
  const alerts = data?.tiles.filter((t) => t.offline_alert) ?? [];

  return (
    <>
      <PageTitle>Rig Map</PageTitle>
      <div className="d-flex flex-wrap gap-3 align-items-end mb-3">
        <LocationSelect id="rig-map-location" value={data?.location ?? null} />
        {data && !data.open_now && (
          <p className="mb-0 text-body-secondary">{data.location_name} is closed now.</p>
        )}
      </div>
      {feed.offlineSince && (
        <Alert variant="warning" className="py-2">
          Live updates are disconnected; reconnecting. The map may be out of date.
        </Alert>
      )}
      {alerts.length > 0 && (
        <Alert variant="danger" className="py-2">
          Rig offline during opening hours: {alerts.map((t) => t.calendar_name).join(', ')}.
        </Alert>
      )}
      {map.isPending && <SpinnerScreen />}
      {map.isError && (
        <Alert variant="danger">
          The rig map could not be loaded. Reload the page to try again.
        </Alert>
      )}
      {data && (
        <ul className="list-unstyled row row-cols-1 row-cols-sm-2 row-cols-lg-3 row-cols-xxl-4 g-3">
          {data.tiles.map((tile) => (
            <li className="col" key={tile.calendar}>
              <RigTile
                tile={tile}
                zone={data.timezone}
                nowMs={nowMs}
                canSignal={canSignal}
                canOpenCustomer={canOpenCustomer}
                plannerLink={pathTo(
                  'adminCalendars',
                  {},
                  {
                    date: slotKeyAt(nowMs, data.timezone).slice(0, 10),
                    location: data.location,
                  },
                )}
                onMove={setMoving}
              />
            </li>
          ))}
        </ul>
      )}
      {data && moving && (
        <MoveDialog
          map={data}
          from={data.tiles.find((t) => t.calendar === moving.calendar) ?? moving}
          onClose={() => setMoving(null)}
        />
      )}
    </>
  );
}
