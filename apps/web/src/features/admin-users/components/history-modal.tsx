import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { Pager } from '../../../components/pager';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { userHistoryQuery } from '../api/list-user-history';

export const NO_HISTORY = 'No reservations yet.';

function HistoryList({ userId }: { userId: number }) {
  // Ordered by slot, oldest first: the list opens on its last page, the latest 50 entries.
  const [chosen, setPage] = useState<number | null>(null);
  const first = useQuery(userHistoryQuery(userId, 1));
  const page = chosen ?? Math.max(1, first.data?.page_count ?? 1);
  const history = useQuery({ ...userHistoryQuery(userId, page), enabled: first.isSuccess });

  if (first.isError) return <p className="text-danger">{errorMessage(first.error)}</p>;
  if (history.isPending) return <SpinnerScreen label="Loading history…" />;
  if (history.isError) return <p className="text-danger">{errorMessage(history.error)}</p>;
  const { results, page_count } = history.data;
  if (results.length === 0) return <p className="mb-0">{NO_HISTORY}</p>;
  return (
    <>
      <Table size="sm" striped aria-busy={history.isFetching}>
        <caption className="visually-hidden">Reservations, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Seat</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr key={r.id}>
              <td className="text-nowrap">
                {DateTime.fromISO(r.time).setZone(r.timezone).toFormat('yyyy-MM-dd h:mm a')}
              </td>
              <td>{r.calendar_name}</td>
              <td>
                <Badge bg={r.paid ? 'success' : 'warning'} text={r.paid ? undefined : 'dark'}>
                  {r.paid ? 'Paid' : 'Unpaid'}
                </Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager page={page} pageCount={page_count} onPage={setPage} label="history" />
    </>
  );
}

/** Staff spec §2 View History: the user's reservations, date and seat, 50 per page. */
export function HistoryModal({
  userId,
  show,
  onHide,
}: {
  userId: number;
  show: boolean;
  onHide: () => void;
}) {
  return (
    <Modal show={show} onHide={onHide} size="lg" scrollable aria-labelledby="history-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="history-title">History</Modal.Title>
      </Modal.Header>
      <Modal.Body>{show && <HistoryList userId={userId} />}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
