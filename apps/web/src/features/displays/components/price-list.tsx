import { useQuery } from '@tanstack/react-query';
import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import type { Paginated } from '@paddock/contract/common';
import type { Calendar, CalendarType } from '@paddock/contract/calendars';
import { PageTitle } from '../../../components/page-title';
import { api } from '../../../lib/api-client';
import { formatMoney } from '@paddock/contract/money-format';
import { pathTo } from '../../../lib/routes';
import { useVenueConfig } from '../../../lib/venue-config';

export const VR_NOTE = '* VR availability varies and needs a minimum booking of 2 hours or more.';

type Price = { type: CalendarType; cents: number; currency: string; unit: string };

/** Each seat type's price at the location (the lowest when seats differ: "from"). */
function pricesOf(seats: Calendar[], types: CalendarType[]): (Price & { from: boolean })[] {
  return types.flatMap((type) => {
    const ofType = seats.filter((s) => s.type === type.id);
    if (ofType.length === 0) return [];
    const cents = Math.min(...ofType.map((s) => s.cost_cents));
    const from = ofType.some((s) => s.cost_cents !== cents);
    return [{ type, cents, currency: ofType[0].currency, unit: ofType[0].cost_unit, from }];
  });
}

/** The price list (spec §2 Splash): the /splash screen, and the first slide of /welcome. */
export function PriceList({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const config = useVenueConfig();
  const [query] = useSearchParams();
  const location = query.get('location');
  const nearest = useQuery({
    queryKey: ['locations', 'nearest'],
    queryFn: () => api<{ id: number; name: string }>('/locations/nearest', { auth: false }),
    enabled: !location,
  });
  const locationId = location ?? (nearest.data ? String(nearest.data.id) : null);
  const seats = useQuery({
    queryKey: ['calendars', 'splash', locationId],
    queryFn: () =>
      api<Paginated<Calendar>>('/calendars', {
        auth: false,
        query: { location: locationId, page_size: 100 },
      }),
    enabled: locationId !== null,
    refetchInterval: 600_000,
  });
  const types = useQuery({
    queryKey: ['caltypes', 'splash'],
    queryFn: async () =>
      (
        await api<Paginated<CalendarType>>('/caltypes', {
          auth: false,
          query: { page_size: 100 },
        })
      ).results,
  });
  const prices = pricesOf(seats.data?.results ?? [], types.data ?? []);
  const hasVr = prices.some((p) => p.type.is_vr);

  return (
    <div className="paddock-tv py-4">
      {headingLevel === 1 ? (
        <PageTitle className="display-4 fw-bold mb-4">Simulator Pricing</PageTitle>
      ) : (
        <h2 className="display-4 fw-bold mb-4">Simulator Pricing</h2>
      )}
      <Table className="fs-3 align-middle" style={{ maxWidth: 960 }}>
        <tbody>
          {prices.map((p) => (
            <tr key={p.type.id}>
              <th scope="row">
                {p.type.name}
                {p.type.is_vr ? '*' : ''}
              </th>
              <td className="text-end text-nowrap">
                {p.from ? 'from ' : ''}
                {formatMoney(p.cents, p.currency)} / {p.unit}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {hasVr && <p className="fs-5">{VR_NOTE}</p>}
      {config.club_enabled && (
        <p className="fs-3 fw-semibold my-4">
          Join the {config.club_name} and save {config.club_discount_percent}% on every race.
        </p>
      )}
      {config.social_links.length > 0 && (
        <ul className="list-inline fs-4">
          {config.social_links.map((l) => (
            <li key={l.url} className="list-inline-item me-4">
              <a href={l.url}>{l.label}</a>
            </li>
          ))}
        </ul>
      )}
      <Link
        to={pathTo('reservationsAdvanced')}
        className="btn btn-primary btn-lg fs-2 px-5 py-3 mt-3"
      >
        Check Availability
      </Link>
    </div>
  );
}
