import { DateTime } from 'luxon';
import { Link } from 'react-router';
import Table from 'react-bootstrap/Table';
import type { AuditEvent } from '@paddock/contract/audit';
import { pathTo } from '../../../lib/routes';

/** What an action's name means to the desk. */
export const ACTION_LABELS: Record<string, string> = {
  'planner.blackout': 'Blacked out times',
  'planner.delete': 'Deleted a reservation',
  'planner.book': 'Booked for a customer',
  'planner.move': 'Moved a reservation',
  'planner.attendance': 'Marked attendance',
  'user.update': 'Changed account details',
  'user.clear_outstanding': 'Marked outstanding as paid',
  'user.desk_payment': 'Took a payment at the desk',
  'user.send_login_link': 'Sent a login link',
  'user.delete': 'Deleted a user',
  'lap.review': 'Reviewed a lap',
  'voucher.issue': 'Issued a voucher',
  'settings.update': 'Changed venue settings',
  'staff.invite': 'Invited to the staff',
  'staff.make_staff': 'Made staff',
  'staff.remove_staff': 'Took off the staff',
  'staff.grant_permission': 'Granted a permission',
  'staff.revoke_permission': 'Revoked a permission',
  'staff.make_superuser': 'Made superuser',
  'staff.demote_superuser': 'No longer superuser',
};

/** `{a: 1}` → `a: 1`, one field per line; nested values as compact JSON. */
function fields(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

/** The trail as a table: when, who, what, for whom, and the fields before and after. */
export function AuditTable({
  events,
  showCustomer = true,
}: {
  events: AuditEvent[];
  showCustomer?: boolean;
}) {
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
          {events.map((e) => (
            <tr key={e.id}>
              <td className="text-nowrap">
                <time dateTime={e.at}>
                  {DateTime.fromISO(e.at).toLocaleString(DateTime.DATETIME_SHORT)}
                </time>
              </td>
              <td>{e.actor_name ?? '—'}</td>
              <td>{ACTION_LABELS[e.action] ?? e.action}</td>
              {showCustomer && (
                <td>
                  {e.subject_user !== null ? (
                    <Link to={pathTo('adminUser', { userId: e.subject_user })}>
                      {e.subject_name}
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
              )}
              <td className="small" style={{ whiteSpace: 'pre-line' }}>
                {fields(e.before)}
              </td>
              <td className="small" style={{ whiteSpace: 'pre-line' }}>
                {fields(e.after)}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
