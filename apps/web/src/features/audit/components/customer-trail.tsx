import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import type { AuditEvent } from '@paddock/contract/audit';
import type { Paginated } from '@paddock/contract/common';
import { api } from '../../../lib/api-client';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { pathTo } from '../../../lib/routes';
import { AuditTable } from './audit-table';

/** The last staff actions about one customer (for staff holding audit.view_event). */
export function CustomerTrail({ userId }: { userId: number }) {
  const session = useSession();
  const allowed = hasPermission(session, 'audit.view_event');
  const trail = useQuery({
    queryKey: ['audit', 'user', userId],
    queryFn: () => api<Paginated<AuditEvent>>('/audit', { query: { user: userId, page_size: 10 } }),
    enabled: allowed,
  });
  if (!allowed) return null;
  return (
    <Card className="mt-4">
      <Card.Body>
        <h2 className="h5">Staff Actions</h2>
        {trail.isSuccess && trail.data.count === 0 && (
          <p className="mb-0">No staff action about this customer yet.</p>
        )}
        {trail.data && trail.data.count > 0 && (
          <>
            <AuditTable events={trail.data.results} showCustomer={false} />
            {trail.data.count > trail.data.results.length && (
              <Link to={pathTo('adminAudit', {}, { user: userId })}>
                All {trail.data.count} actions
              </Link>
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
