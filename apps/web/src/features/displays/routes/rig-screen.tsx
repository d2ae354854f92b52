import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { RIG_SCREEN_WORDS as W, type RigSessionBooking } from '@paddock/contract/rig-session';
import { PageTitle } from '../../../components/page-title';
import { formatSlotTime, slotKeyAt } from '../../../lib/slot-format';
import { useNow } from '../../../lib/use-now';
import { TvScreen } from '../components/tv-screen';
import {
  extendSession,
  rigKeyFromHash,
  rigSessionQuery,
  startSession,
} from '../api/rig-session-api';
import { rigPhase } from '../components/rig-phase';

const RIG_TOPICS = ['reservations'];

/**
 * The rig screen (issue 42, decision 0120): the rig's own monitor or a tablet beside it, opened
 * with the rig's key (`/rig#key=rig_…`), no login and no navigation, live through the change
 * feed like the wall screens. Between bookings: the seat and when it is next booked; during one:
 * the greeting, the time left, the car and track, the warnings, Start and Extend.
 */
export default function RigScreen() {
  const [key] = useState(() => rigKeyFromHash(window.location.hash));
  const client = useQueryClient();
  const session = useQuery(rigSessionQuery(key));
  const clientNow = useNow(1_000);
  const data = session.data;
  // The server's clock: the screen counts from the answer's `now`, not the tablet's own.
  const offset = data ? Date.parse(data.now) - session.dataUpdatedAt : 0;
  const now = clientNow + offset;
  // The session shown last: after its end the screen says goodbye for a minute.
  const [lastSeen, setLastSeen] = useState<RigSessionBooking | null>(null);
  const phase = data ? rigPhase(data, now, lastSeen) : null;
  if (
    phase?.kind === 'session' &&
    (phase.booking.reservation !== lastSeen?.reservation || phase.booking.ends !== lastSeen.ends)
  )
    setLastSeen(phase.booking);
  // At the booked end (or a start) the answer changes: read it again then.
  const boundary = phase?.kind === 'session' ? Date.parse(phase.booking.ends) : null;
  useEffect(() => {
    if (boundary === null) return;
    const timer = setTimeout(
      () => void client.invalidateQueries({ queryKey: ['rig-session'] }),
      Math.max(0, boundary - (Date.now() + offset)) + 500,
    );
    return () => clearTimeout(timer);
  }, [boundary, offset, client]);

  const refresh = () => client.invalidateQueries({ queryKey: ['rig-session'] });
  const start = useMutation({
    mutationFn: (reservation: number) => startSession(key, reservation),
    onSettled: refresh,
  });
  const extend = useMutation({
    mutationFn: (b: RigSessionBooking) => extendSession(key, b.reservation, b.ends),
    onSettled: refresh,
  });

  const time = (iso: string) => formatSlotTime(slotKeyAt(Date.parse(iso), data!.timezone));

  let body;
  if (!key)
    body = (
      <Alert variant="warning">
        This screen needs its rig’s key: open it from the rig agent or as /rig#key=… .
      </Alert>
    );
  else if (session.isError && !data)
    body = <Alert variant="warning">{(session.error as Error).message}</Alert>;
  else if (!data || !phase) body = <p>Loading…</p>;
  else if (phase.kind === 'out_of_service') body = <p className="display-6">{W.outOfService}</p>;
  else if (phase.kind === 'idle')
    body = (
      <p className="display-6">
        {phase.next
          ? Date.parse(phase.next.starts) <= now
            ? W.nextBookedAt(time(phase.next.starts))
            : `${W.freeUntil(time(phase.next.starts))} · ${W.nextBookedAt(time(phase.next.starts))}`
          : W.freeNow}
      </p>
    );
  else if (phase.kind === 'ended') body = <p className="display-6">{W.ended}</p>;
  else {
    const b = phase.booking;
    body = (
      <>
        <p className="display-6">{W.welcome(b.customer_name)}</p>
        <p className="display-1 fw-bold" aria-live="polite">
          {W.minutesLeft(phase.minutesLeft)}
        </p>
        <p>
          {time(b.starts)} – {time(b.ends)}
          {data.car || data.track ? ` · ${[data.car, data.track].filter(Boolean).join(' · ')}` : ''}
        </p>
        {phase.warning !== 'none' && (
          <Alert variant={phase.warning === 'last' ? 'danger' : 'warning'} role="alert">
            {W.minutesLeft(phase.minutesLeft)}. {phase.nextTaken ? W.nextIsBooked : ''}
          </Alert>
        )}
        {phase.awaitingStart && (
          <Button
            size="lg"
            variant="success"
            className="me-3"
            disabled={start.isPending}
            onClick={() => start.mutate(b.reservation)}
          >
            {W.start}
          </Button>
        )}
        {data.can_extend && (
          <Button
            size="lg"
            variant="primary"
            disabled={extend.isPending}
            onClick={() => extend.mutate(b)}
          >
            {W.extend}
          </Button>
        )}
        {extend.isSuccess && (
          <Alert variant="success" className="mt-3" role="status">
            {W.extended(time(extend.data.ends))}
            {extend.data.paid ? '' : ' Please pay at the desk.'}
          </Alert>
        )}
        {(extend.isError || start.isError) && (
          <Alert variant="danger" className="mt-3" role="alert">
            {((extend.error ?? start.error) as Error).message}
          </Alert>
        )}
      </>
    );
  }

  return (
    <TvScreen topics={RIG_TOPICS} rigKey={key || undefined}>
      <main className="paddock-tv container py-4" style={{ cursor: 'auto' }}>
        <PageTitle className="h2" visuallyHidden={!data}>
          {data ? data.seat_name : 'Rig screen'}
        </PageTitle>
        {body}
      </main>
    </TvScreen>
  );
}
