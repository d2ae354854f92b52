import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { Paginated } from '@paddock/contract/common';
import { OUTBOX_STATUS_LABELS, type OutboxSummary } from '@paddock/contract/outbox';
import { PageTitle } from '../../../components/page-title';
import { Pager } from '../../../components/pager';
import { api } from '../../../lib/api-client';
import { useVenueTime } from '../../../lib/venue-time';
import { OutboxMessageDialog } from '../components/outbox-message-dialog';

export const OUTBOX_EMPTY = 'No mail has been kept yet.';

/**
 * Staff (outbox.view_message): the mail kept when no SMTP server is set, newest first. The list
 * shows who, what and when; a body is fetched only when one mail is opened (decision 0097). Kept
 * mail was never sent, and says so: "Kept (no mail server)" (decision 0115).
 */
export default function OutboxScreen() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page')) || 1;
  const [open, setOpen] = useState<number | null>(null);
  const time = useVenueTime();
  const mail = useQuery({
    queryKey: ['outbox', 'list', page],
    queryFn: () => api<Paginated<OutboxSummary>>('/outbox', { query: { page, page_size: 50 } }),
  });
  return (
    <>
      <PageTitle>Outbox</PageTitle>
      <p className="text-body-secondary">
        No mail server is set, so the mail below was kept here and not sent. Open one to read it or
        send it again.
      </p>
      {mail.isSuccess && mail.data.count === 0 && <p>{OUTBOX_EMPTY}</p>}
      {mail.data && mail.data.count > 0 && (
        <div className="table-responsive" tabIndex={0} role="region" aria-label="Mail">
          <Table size="sm" className="align-middle">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {mail.data.results.map((m) => (
                <tr key={m.id}>
                  <td className="text-nowrap">
                    <time dateTime={m.created}>{time.dateTime(m.created)}</time>
                  </td>
                  <td className="text-break">{m.to}</td>
                  <td>
                    <Button variant="link" className="p-0 text-start" onClick={() => setOpen(m.id)}>
                      {m.subject}
                    </Button>
                  </td>
                  <td>{OUTBOX_STATUS_LABELS[m.status]}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {mail.data && (
        <Pager
          page={page}
          pageCount={mail.data.page_count}
          onPage={(p) => setParams({ page: String(p) })}
          label="the outbox"
        />
      )}
      {open !== null && <OutboxMessageDialog id={open} onClose={() => setOpen(null)} />}
    </>
  );
}
