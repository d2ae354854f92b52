import { useId } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { SIGN_UP_TO_SEE_AVAILABILITY } from '@paddock/contract/booking-words';
import { useSession } from '../../../lib/auth-store';
import { errorMessage } from '../../../lib/error-message';
import { locationsQuery } from '../../../lib/locations-query';
import { pathTo } from '../../../lib/routes';
import { formatSlotTime, todayIn } from '../../../lib/slot-format';
import { useVenueConfig } from '../../../lib/venue-config';
import { publicAvailabilityQuery } from '../api/get-public-availability';
import { bookPath, type Selection } from '../booking-path';
import { DayPicker } from '../components/day-picker';
import { SeatDay } from '../components/seat-day';

/**
 * Free seats before signing up (issue 45, decision 0123): a location's seats, prices and free
 * times for a day; Book asks a visitor to sign up (or log in) and lands on the same selection.
 * The choice lives in the address (location, date, seat, slot): Back and a shared link keep it.
 */
export default function FreeSeatsScreen() {
  const config = useVenueConfig();
  const signedIn = useSession() !== null;
  const navigate = useNavigate();
  const locationId = useId();
  const [params, setParams] = useSearchParams();
  const locations = useQuery({ ...locationsQuery, enabled: config.public_availability });
  const list = locations.data ?? [];
  const location = list.find((l) => String(l.id) === params.get('location')) ?? list[0];
  const today = todayIn(location?.timezone ?? config.default_timezone);
  const asked = params.get('date');
  const date = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked >= today ? asked : today;
  const seat = Number(params.get('seat'));
  const slot = params.get('slot');
  const selection: Selection | null = seat > 0 && slot ? { seat, slot } : null;
  const day = useQuery({
    ...publicAvailabilityQuery(location?.id ?? 0, date),
    enabled: config.public_availability && !!location,
  });
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );

  if (!config.public_availability)
    return (
      <div>
        <h1>Free Seats</h1>
        <p>{SIGN_UP_TO_SEE_AVAILABILITY}</p>
        <Link
          className="btn btn-primary me-2"
          to={pathTo('signup', {}, { redirect: pathTo('reservationsAdvanced') })}
        >
          Sign Up
        </Link>
        <Link to={pathTo('login', {}, { redirect: pathTo('reservationsAdvanced') })}>Log In</Link>
      </div>
    );

  const chosenSeat = day.data?.seats.find((s) => s.id === selection?.seat);
  const chosenFree = chosenSeat?.free.some((f) => f.slot === selection?.slot);
  return (
    <div className="pb-5">
      <h1>Free Seats</h1>
      {list.length > 1 && (
        <div className="mb-3" style={{ maxWidth: '24rem' }}>
          <label htmlFor={locationId} className="form-label">
            Location
          </label>
          <select
            id={locationId}
            className="form-select"
            value={location?.id ?? ''}
            onChange={(e) => set({ location: e.target.value, seat: null, slot: null })}
          >
            {list.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <DayPicker
        date={date}
        first={today}
        onChange={(d) => set({ date: d, seat: null, slot: null })}
      />
      {day.isError && (
        <p role="alert" className="text-danger">
          {errorMessage(day.error)}
        </p>
      )}
      {day.isPending && location && <p>Loading available times...</p>}
      {day.data && (
        <SeatDay
          day={day.data}
          colour={config.brand_colour}
          selected={selection}
          onPick={(s) =>
            set({ seat: String(s.seat), slot: s.slot, location: String(location!.id) })
          }
        />
      )}
      {selection && chosenSeat && chosenFree && (
        <div
          className="position-sticky bottom-0 bg-body py-3 border-top"
          style={{ ['--seat-day-brand' as string]: config.brand_colour }}
        >
          <button
            type="button"
            className="btn btn-primary btn-lg"
            onClick={() => navigate(bookPath(selection, signedIn))}
          >
            Book {chosenSeat.name} at {formatSlotTime(selection.slot)}
          </button>
          {!signedIn && (
            <p className="small mb-0 mt-1">You sign up or log in next; your time stays chosen.</p>
          )}
        </div>
      )}
    </div>
  );
}
