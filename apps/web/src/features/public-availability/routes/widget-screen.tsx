import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { WIDGET_HEIGHT_MESSAGE } from '@paddock/contract/public-availability';
import { errorMessage } from '../../../lib/error-message';
import { todayIn } from '../../../lib/slot-format';
import { useVenueConfig } from '../../../lib/venue-config';
import { publicAvailabilityQuery } from '../api/get-public-availability';
import { bookingPath } from '../booking-path';
import { DayPicker } from '../components/day-picker';
import { SeatDay } from '../components/seat-day';

/** Tells the loader script on the venue's page how tall this page is, whenever it changes. */
function usePostHeight() {
  useEffect(() => {
    if (window.parent === window) return;
    const post = () =>
      window.parent.postMessage(
        { type: WIDGET_HEIGHT_MESSAGE, height: document.documentElement.scrollHeight },
        // Only a height: nothing in it is anyone's; the loader checks it comes from Paddock.
        '*',
      );
    const observer = new ResizeObserver(post);
    observer.observe(document.body);
    post();
    return () => observer.disconnect();
  }, []);
}

/**
 * The booking widget (issue 45, decision 0123): the page the loader script frames on the venue's
 * own website. One location's free times for a day with prices, in the venue's colour; a time
 * opens Paddock's booking on it in a new tab (no cookie of Paddock's is needed in the frame).
 */
export default function WidgetScreen() {
  const config = useVenueConfig();
  const locationId = Number(useParams().location);
  const [date, setDate] = useState<string | null>(null);
  const today = todayIn(config.default_timezone);
  const shown = date ?? today;
  const day = useQuery({
    ...publicAvailabilityQuery(locationId, shown),
    enabled: Number.isInteger(locationId) && locationId > 0,
  });
  usePostHeight();
  const zoneToday = day.data ? todayIn(day.data.location.timezone) : today;

  return (
    <div className="paddock-widget">
      <h1 className="h4">{day.data ? `Book at ${day.data.location.name}` : config.company_name}</h1>
      <DayPicker date={shown} first={zoneToday} onChange={setDate} />
      {day.isError && (
        <p role="alert" className="text-danger">
          {errorMessage(day.error)}
        </p>
      )}
      {day.isPending && <p>Loading available times...</p>}
      {day.data && (
        <SeatDay
          day={day.data}
          colour={config.brand_colour}
          onPick={(s) =>
            window.open(`${window.location.origin}${bookingPath(s)}`, '_blank', 'noopener')
          }
        />
      )}
      <p className="small mt-2 mb-0">
        Choosing a time opens {config.company_name}'s booking in a new tab.
      </p>
    </div>
  );
}
