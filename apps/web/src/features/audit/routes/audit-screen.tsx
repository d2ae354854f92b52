import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Form from 'react-bootstrap/Form';
import type { AuditEvent } from '@paddock/contract/audit';
import type { Paginated } from '@paddock/contract/common';
import { PageTitle } from '../../../components/page-title';
import { Pager } from '../../../components/pager';
import { api } from '../../../lib/api-client';
import { AuditTable } from '../components/audit-table';

const AREAS = [
  ['', 'Everything'],
  ['planner', 'Planner'],
  ['user', 'Customers'],
  ['lap', 'Laps'],
  ['voucher', 'Vouchers'],
  ['staff', 'Staff and permissions'],
  ['location', 'Locations and hours'],
  ['seat', 'Seats and prices'],
  ['page', 'Custom pages'],
  ['settings', 'Venue settings'],
  ['backups', 'Backups'],
] as const;

export const AUDIT_EMPTY = 'No staff action has been recorded yet.';

/** Staff (audit.view_event): every recorded staff action, newest first, by area and customer. */
export default function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const area = params.get('action') ?? '';
  const user = params.get('user') ?? '';
  const page = Number(params.get('page')) || 1;
  const trail = useQuery({
    queryKey: ['audit', area, user, page],
    queryFn: () =>
      api<Paginated<AuditEvent>>('/audit', {
        query: { action: area || undefined, user: user || undefined, page, page_size: 50 },
      }),
  });
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  };
  return (
    <>
      <PageTitle>Audit Trail</PageTitle>
      <Form className="d-flex flex-wrap gap-2 mb-3" onSubmit={(e) => e.preventDefault()}>
        <Form.Group controlId="audit-area">
          <Form.Label className="small mb-1">Area</Form.Label>
          <Form.Select size="sm" value={area} onChange={(e) => set('action', e.target.value)}>
            {AREAS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {user && (
          <p className="align-self-end mb-1">
            One customer only.{' '}
            <button
              type="button"
              className="btn btn-link btn-sm p-0"
              onClick={() => set('user', '')}
            >
              Show everyone
            </button>
          </p>
        )}
      </Form>
      {trail.isSuccess && trail.data.count === 0 && <p>{AUDIT_EMPTY}</p>}
      {trail.data && trail.data.count > 0 && <AuditTable events={trail.data.results} />}
      {trail.data && (
        <Pager
          page={page}
          pageCount={trail.data.page_count}
          onPage={(p) => set('page', String(p))}
          label="the audit trail"
        />
      )}
    </>
  );
}
