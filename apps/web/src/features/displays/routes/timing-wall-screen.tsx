import { useParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { TvScreen } from '../components/tv-screen';
import { SessionBar } from '../components/session-bar';
import { TimingTable } from '../components/timing-table';
import { useTiming } from '../components/use-timing';
import { NO_SESSION_YET } from '../components/timing-words';
import '../components/timing.css';

/** `/display/timing/:eventId`: the event's live timing on a wall screen (decision 0122). */
export default function TimingWallScreen() {
  const eventId = Number(useParams().eventId);
  const { tower } = useTiming(eventId);
  const data = tower.data?.tower;
  return (
    <TvScreen>
      <div className="paddock-tv-timing">
        <PageTitle visuallyHidden>Live timing</PageTitle>
        {tower.isError && <p>No such event.</p>}
        {tower.isSuccess && !data && <p>{NO_SESSION_YET}</p>}
        {data && (
          <>
            <SessionBar tower={data} />
            <TimingTable tower={data} />
          </>
        )}
      </div>
    </TvScreen>
  );
}
