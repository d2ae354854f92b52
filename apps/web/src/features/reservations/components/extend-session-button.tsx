import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import type { Reservation } from '@paddock/contract/reservations';
import { RIG_SCREEN_WORDS } from '@paddock/contract/rig-session';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { formatSlotTime, slotKeyAt } from '../../../lib/slot-format';
import { futureReservationsQuery } from '../api/list-future-reservations';

const endOf = (r: Reservation) => Date.parse(r.time) + r.duration_minutes * 60_000;

/** The end of the session `r` is in: back-to-back bookings of the same seat are one session. */
export function sessionEnd(r: Reservation, all: Reservation[]): number {
  let end = endOf(r);
  for (;;) {
    const next = all.find((o) => o.calendar === r.calendar && Date.parse(o.time) === end);
    if (!next) return end;
    end = endOf(next);
  }
}

/**
 * One tap in the app while the booking's session runs (issue 42, decision 0120): the next
 * half-hour, booked and paid as on the rig screen. `ends` is the end shown: a second tap after a
 * lost answer books nothing more.
 */
export function ExtendSessionButton({
  reservation,
  all,
}: {
  reservation: Reservation;
  /** The caller's listed bookings: the session runs on through the same seat's next ones. */
  all: Reservation[];
}) {
  const client = useQueryClient();
  const ends = new Date(sessionEnd(reservation, all)).toISOString();
  const extend = useMutation({
    mutationFn: () =>
      api<{ detail: string; ends: string; paid: boolean }>(
        `/reservations/${reservation.id}/extend`,
        { method: 'POST', body: { ends } },
      ),
    onSuccess: (result) =>
      showAlert(
        `${RIG_SCREEN_WORDS.extended(formatSlotTime(slotKeyAt(Date.parse(result.ends), reservation.timezone)))}${result.paid ? '' : ' Please pay at the desk.'}`,
        'success',
      ),
    onError: (error) => showError(error),
    onSettled: () => client.invalidateQueries({ queryKey: futureReservationsQuery.queryKey }),
  });
  return (
    <Button
      variant="primary"
      size="sm"
      className="me-2"
      disabled={extend.isPending}
      onClick={() => extend.mutate()}
      aria-label={`${RIG_SCREEN_WORDS.extend}: ${reservation.calendar_name}`}
    >
      {RIG_SCREEN_WORDS.extend}
    </Button>
  );
}
