import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import type { AuditEvent } from '@paddock/contract/audit';
import { pathTo } from '../../../lib/routes';
import { useVenueTime } from '../../../lib/venue-time';
import { fieldLines, groupActs, type When } from './audit-words';

/** Where the target of a row is shown, by kind: a link that names it. */
const TARGET_LINKS: Record<string, (id: number) => string> = {
  user: (id) => pathTo('adminUser', { userId: id }),
  location: () => pathTo('adminLocations'),
  calendar: () => pathTo('adminLocations'),
  calendar_type: () => pathTo('adminLocations'),
  page: (id) => pathTo('customPageView', { id }),
  party: () => pathTo('adminParties'),
};

/** Each row's fields in words; an act of several rows lists each, once. */
function lines(events: AuditEvent[], side: 'before' | 'after', when: When) {
  return [...new Set(events.map((e) => fieldLines(e[side], e.names, when)).filter(Boolean))].join(
    '\n\n',
  );
}

function Target({ event }: { event: AuditEvent }) {
  const link = TARGET_LINKS[event.target_type];
  if (!link || event.target_id === null || event.target_type === 'user') return null;
  if (event.target_name === null) return <span className="text-body-secondary"> (deleted)</span>;
  return (
    <>
      {': '}
      <Link to={link(event.target_id)}>{event.target_name}</Link>
    </>
  );
}

function Customer({ event }: { event: AuditEvent }) {
  if (event.subject_user === null) return <>—</>;
  if (event.subject_deleted || !event.subject_name)
    return <span className="text-body-secondary">Deleted customer</span>;
  return <Link to={pathTo('adminUser', { userId: event.subject_user })}>{event.subject_name}</Link>;
}

/** The trail as a table: when, who, what, for whom, and the fields before and after. */
export function AuditTable({
  events,
  showCustomer = true,
}: {
  events: AuditEvent[];
  showCustomer?: boolean;
}) {
  const time = useVenueTime();
  // Its own scrolling region, reachable by keyboard: long entries overflow on a phone (axe
  // scrollable-region-focusable), which react-bootstrap's `responsive` wrapper is not.
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label="Staff actions">
      <Table size="sm" className="align-top">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            {showCustomer && <th scope="col">Customer</th>}
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {groupActs(events).map(({ key, first: e, events: rows, label }) => (
            <tr key={key}>
              <td className="text-nowrap">
                <time dateTime={e.at}>{time.dateTime(e.at)}</time>
              </td>
              <td>{e.actor_name ?? 'Paddock (automatic)'}</td>
              <td>
                {label}
                <Target event={rows[0] ?? e} />
              </td>
              {showCustomer && (
                <td>
                  <Customer event={e} />
                </td>
              )}
              <td className="small" style={{ whiteSpace: 'pre-line' }}>
                {lines(rows, 'before', time.dateTime)}
              </td>
              <td className="small" style={{ whiteSpace: 'pre-line' }}>
                {lines(rows, 'after', time.dateTime)}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
