import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { Link, useSearchParams } from 'react-router';
import type { Lap, Track } from '@paddock/contract/laps';
import { PageTitle } from '../../../components/page-title';
import { Pager } from '../../../components/pager';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { api } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { groupsQuery } from '../../../lib/api/catalog-queries';
import { SearchBox } from '../../../components/search-box';
import { isRanked, myLapsQuery } from '../api/laps-query';
import { GroupModal } from '../components/group-modal';
import { LapsTable } from '../components/laps-table';
import { ProgressChart } from '../components/progress-chart';
import { TrackModal } from '../components/track-modal';

export const NO_LAPS_YET = "You haven't recorded any laps yet";
export const NO_RESULTS = 'Your search yielded no results';
export const RANK_TIP =
  'Tip: choose a group and a track and set Valid to Yes to rank your laps. Clicking a track name does it for you.';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : null);

/** My Laps — spec customer §2 /laps. */
export default function LapsScreen() {
  const [params, setParams] = useSearchParams();
  const group = idParam(params.get('group'));
  const track = idParam(params.get('track'));
  const [search, setSearch] = useState('');
  const [validOnly, setValidOnly] = useState(params.get('valid') === 'true');
  const [page, setPage] = useState(1);
  const [modal, setModal] = useState<'group' | 'track' | null>(null);
  const keywords = useDebouncedValue(search.trim(), 300);

  const filters = { search: keywords, validOnly, group, track, page };
  const ranked = isRanked(filters);
  const laps = useQuery(myLapsQuery(filters));
  const groups = useQuery(groupsQuery());
  const trackInfo = useQuery({
    queryKey: ['tracks', 'one', track],
    queryFn: () => api<Track>(`/tracks/${track}`, { auth: false }),
    enabled: track !== null,
  });

  const mirror = (next: { group?: number | null; track?: number | null }) => {
    const query = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null) query.delete(key);
      else if (value !== undefined) query.set(key, String(value));
    }
    setParams(query, { replace: true });
    setPage(1);
  };
  const rankOnTrack = (lap: Lap) => {
    const gt3 = groups.data?.find((g) => g.name === 'GT3')?.id ?? null;
    setValidOnly(true);
    mirror({ track: lap.track, group: group ?? gt3 });
  };
  const clearFilters = () => {
    setSearch('');
    setValidOnly(false);
    mirror({ group: null, track: null });
  };
  const filtered = keywords !== '' || validOnly || group !== null || track !== null;
  const groupName = groups.data?.find((g) => g.id === group)?.name;

  return (
    <>
      <PageTitle>My Laps</PageTitle>
      <div className="d-flex flex-wrap gap-3 align-items-end mb-2">
        <SearchBox
          id="laps-search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <div>
          <div className="small mb-1" id="laps-valid-label">
            Valid
          </div>
          <ToggleButtonGroup
            type="radio"
            name="laps-valid"
            aria-labelledby="laps-valid-label"
            value={validOnly ? 'yes' : 'any'}
            onChange={(v: string) => {
              setValidOnly(v === 'yes');
              setPage(1);
            }}
          >
            <ToggleButton id="laps-valid-yes" value="yes" variant="outline-primary">
              Yes
            </ToggleButton>
            <ToggleButton id="laps-valid-any" value="any" variant="outline-primary">
              Any
            </ToggleButton>
          </ToggleButtonGroup>
        </div>
        <Button variant="outline-secondary" onClick={() => setModal('group')}>
          Group: {groupName ?? 'All'}
        </Button>
        <Button variant="outline-secondary" onClick={() => setModal('track')}>
          Track: {track === null ? 'All' : (trackInfo.data?.name ?? '…')}
        </Button>
      </div>
      <p className="small text-body-secondary">{RANK_TIP}</p>
      {track !== null && trackInfo.data && (
        <ProgressChart track={track} trackName={trackInfo.data.name} />
      )}

      {laps.isPending ? (
        <SpinnerScreen label="Loading your laps…" />
      ) : laps.isError ? (
        <p className="text-danger">{errorMessage(laps.error)}</p>
      ) : laps.data.count === 0 ? (
        filtered ? (
          <div className="text-center my-5">
            <p className="fs-5">{NO_RESULTS}</p>
            <Button onClick={clearFilters}>Clear Filters</Button>
          </div>
        ) : (
          <div className="text-center my-5">
            <p className="fs-5">{NO_LAPS_YET}</p>
            <Link className="btn btn-primary" to={pathTo('reservations')}>
              Book Now
            </Link>
          </div>
        )
      ) : (
        <>
          <LapsTable
            laps={laps.data.results}
            ranked={ranked}
            onTrack={rankOnTrack}
            busy={laps.isFetching}
          />
          <Pager page={page} pageCount={laps.data.page_count} onPage={setPage} label="laps" />
        </>
      )}

      <GroupModal
        show={modal === 'group'}
        selected={group}
        onHide={() => setModal(null)}
        onChoose={(g) => {
          mirror({ group: g });
          setModal(null);
        }}
      />
      <TrackModal
        show={modal === 'track'}
        selected={track}
        onHide={() => setModal(null)}
        onChoose={(t) => {
          mirror({ track: t?.id ?? null });
          setModal(null);
        }}
      />
    </>
  );
}
