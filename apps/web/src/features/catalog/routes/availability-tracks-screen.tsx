import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Table from 'react-bootstrap/Table';
import { SIM_NAMES } from '@paddock/contract/laps';
import { Pager } from '../../../components/pager';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { tracksQuery } from '../../../lib/api/catalog-queries';
import { formatCount } from '../components/format';
import { SearchBox } from '../../../components/search-box';

export const NO_TRACKS = 'No tracks matched your search query';

/** The Tracks tab of /availability (spec customer §2): most driven first. */
export default function AvailabilityTracksScreen() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const keywords = useDebouncedValue(search.trim(), 300);
  const tracks = useQuery(tracksQuery(keywords, page));
  return (
    <section aria-label="Tracks">
      <div className="d-flex mb-3">
        <SearchBox
          id="tracks-search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
      </div>
      {tracks.isPending ? (
        <SpinnerScreen label="Loading tracks…" />
      ) : tracks.isError ? (
        <p className="text-danger">{errorMessage(tracks.error)}</p>
      ) : tracks.data.results.length === 0 ? (
        <p>{NO_TRACKS}</p>
      ) : (
        <>
          <Table responsive hover className="align-middle" aria-busy={tracks.isFetching}>
            <thead>
              <tr>
                <th scope="col">Track Name</th>
                <th scope="col" className="text-end">
                  Customer Laps
                </th>
                <th scope="col">Absolute Lap Record</th>
              </tr>
            </thead>
            <tbody>
              {tracks.data.results.map((track) => (
                <tr key={track.id}>
                  <td>
                    {track.name}
                    {/* Beside the name, not a column of its own: the table fits a phone. */}
                    <div className="small text-body-secondary">{SIM_NAMES[track.sim]}</div>
                  </td>
                  <td className="text-end">{formatCount(track.laps_count)}</td>
                  <td>
                    {track.laps_record_hms ? (
                      <>
                        <strong>{track.laps_record_hms}</strong> by {track.laps_record_user},{' '}
                        {track.laps_record_car}
                      </>
                    ) : (
                      'None'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager page={page} pageCount={tracks.data.page_count} onPage={setPage} label="tracks" />
        </>
      )}
    </section>
  );
}
