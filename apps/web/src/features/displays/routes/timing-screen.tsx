import { useParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { SessionBar } from '../components/session-bar';
import { TimingList } from '../components/timing-list';
import { useTiming } from '../components/use-timing';
import { NO_SESSION_YET } from '../components/timing-words';
import '../components/timing.css';

/** `/timing/:eventId`: the same tower in one column, for spectators' and drivers' phones. */
export default function TimingScreen() {
  const eventId = Number(useParams().eventId);
  const { tower, offlineSince } = useTiming(eventId);
  const data = tower.data?.tower;
  return (
    <div className="container py-3" style={{ maxWidth: '40rem' }}>
      <PageTitle>Live timing</PageTitle>
      {tower.isPending && <SpinnerScreen label="Loading…" />}
      {tower.isError && <p>No such event.</p>}
      {tower.isSuccess && !data && <p>{NO_SESSION_YET}</p>}
      {offlineSince && (
        <p className="small text-body-secondary" role="status">
          Not updating since {offlineSince.toLocaleTimeString()}: trying again.
        </p>
      )}
      {data && (
        <>
          <SessionBar tower={data} />
          <TimingList tower={data} />
        </>
      )}
    </div>
  );
}
