import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { BackupEntry, BackupSchedule } from '@paddock/contract/backups';
import type { Paginated } from '@paddock/contract/common';
import { PageTitle } from '../../../components/page-title';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { useVenueTime } from '../../../lib/venue-time';

type BackupList = Paginated<BackupEntry> & { schedule: BackupSchedule };

export const BACKUPS_EMPTY = 'No backup has been taken yet.';

const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Saves a backup the browser fetched with the session (a plain link would carry no token). */
async function download(entry: BackupEntry) {
  const blob = await api<Blob>(`/backups/${entry.name}`, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = entry.name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Superusers: the database backups, a new one now, and a download of each (decision 0114). */
export default function BackupsScreen() {
  const client = useQueryClient();
  const time = useVenueTime();
  const list = useQuery({
    queryKey: ['backups'],
    queryFn: () => api<BackupList>('/backups', { query: { page_size: 100 } }),
  });
  const start = useMutation({
    mutationFn: () => api<BackupEntry>('/backups', { method: 'POST' }),
    onSuccess: (entry) => {
      showAlert(`Backup ${entry.name} taken.`, 'success', 5_000);
      void client.invalidateQueries({ queryKey: ['backups'] });
    },
    onError: (error) => showError(error),
  });
  const save = useMutation({ mutationFn: download, onError: (error) => showError(error) });
  const backups = list.data?.results ?? [];
  const schedule = list.data?.schedule;

  return (
    <>
      <PageTitle>Backups</PageTitle>
      {schedule && (
        <p>
          {schedule.nightly
            ? `A backup is taken every night at ${schedule.time} (${schedule.timezone}); the newest ${schedule.keep} nightly backups are kept. Change both in Venue Settings.`
            : 'This database is backed up by its own server (see "Operating Paddock" in the README); backups taken here are extra copies.'}
        </p>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <Button onClick={() => start.mutate()} disabled={start.isPending}>
          {start.isPending ? 'Taking a Backup…' : 'Take a Backup Now'}
        </Button>
      </div>
      {list.isSuccess && backups.length === 0 && <p>{BACKUPS_EMPTY}</p>}
      {backups.length > 0 && (
        <Table responsive size="sm" className="align-middle">
          <thead>
            <tr>
              <th scope="col">Taken</th>
              <th scope="col">Kind</th>
              <th scope="col">Size</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {backups.map((entry) => (
              <tr key={entry.name}>
                <th scope="row">
                  <time dateTime={entry.created} title={entry.name}>
                    {time.dateTime(entry.created)}
                  </time>
                </th>
                <td>
                  <Badge bg={entry.kind === 'nightly' ? 'secondary' : 'primary'}>
                    {entry.kind === 'nightly' ? 'Nightly' : 'Manual'}
                  </Badge>
                </td>
                <td>{size(entry.size_bytes)}</td>
                <td className="text-end text-nowrap">
                  <Button
                    size="sm"
                    variant="outline-primary"
                    disabled={save.isPending}
                    onClick={() => save.mutate(entry)}
                  >
                    Download<span className="visually-hidden"> the backup of {entry.name}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}
