import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { Location } from '@paddock/contract/locations';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { SelectField } from '../../../components/text-field';
import { showAlert } from '../../../lib/alerts';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { errorMessage } from '../../../lib/error-message';
import { useVenueConfig } from '../../../lib/venue-config';
import { seatTypesQuery, setupLocationsQuery } from '../api/venue-setup-api';
import { LocationForm } from '../components/location-form';
import { SeatTypesSection } from '../components/seat-types-section';
import { SeatsSection } from '../components/seats-section';

export const LOCATION_SAVED = 'The location has been saved.';

/** Today's date (YYYY-MM-DD) in a time zone; the browser's own when the zone is not valid. */
function todayIn(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
  } catch {
    return new Intl.DateTimeFormat('en-CA').format(new Date());
  }
}

/**
 * Staff with locations.change_location set up locations (hours, special dates, fees) and, with
 * calendars.change_calendar, their seats and the venue's seat types (issue 16).
 */
export default function LocationsScreen() {
  const client = useQueryClient();
  const session = useSession();
  const config = useVenueConfig();
  const canSeat = hasPermission(session, 'calendars.change_calendar');
  const locations = useQuery(setupLocationsQuery);
  const types = useQuery({ ...seatTypesQuery, enabled: canSeat });
  const [chosen, setChosen] = useState<number | 'new' | null>(null);

  const list = locations.data?.results ?? [];
  const selected: Location | null =
    chosen === 'new' ? null : (list.find((l) => l.id === chosen) ?? list[0] ?? null);
  const creating = chosen === 'new' || (locations.isSuccess && list.length === 0);

  const onSaved = async (saved: Location) => {
    await client.invalidateQueries({ queryKey: setupLocationsQuery.queryKey });
    setChosen(saved.id);
    showAlert(LOCATION_SAVED, 'success', 5_000);
  };

  return (
    <>
      <PageTitle>Locations</PageTitle>
      {locations.isPending && <SpinnerScreen />}
      {locations.isError && <Alert variant="danger">{errorMessage(locations.error)}</Alert>}
      {locations.isSuccess && (
        <>
          <div className="d-flex flex-wrap align-items-end gap-2 mb-4">
            {list.length > 0 && (
              <SelectField
                label="Location"
                groupClassName="mb-0"
                value={creating ? '' : String(selected?.id ?? '')}
                onChange={(e) => setChosen(e.target.value ? Number(e.target.value) : 'new')}
              >
                {creating && <option value="">New location</option>}
                {list.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </SelectField>
            )}
            <Button variant="outline-primary" onClick={() => setChosen('new')} disabled={creating}>
              New Location
            </Button>
          </div>
          <LocationForm
            key={creating ? 'new' : selected?.id}
            location={creating ? null : selected}
            defaultZone={config.default_timezone}
            today={todayIn(creating ? config.default_timezone : (selected?.timezone ?? ''))}
            onSaved={(saved) => void onSaved(saved)}
          />
          {canSeat && !creating && selected && (
            <div className="mt-5">
              <SeatsSection
                location={selected}
                locations={list}
                types={types.data?.results ?? []}
              />
              <SeatTypesSection types={types.data?.results ?? []} />
            </div>
          )}
        </>
      )}
    </>
  );
}
