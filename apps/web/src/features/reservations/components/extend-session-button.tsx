import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import type { Reservation } from '@paddock/contract/reservations';
import { RIG_SCREEN_WORDS } from '@paddock/contract/rig-session';
import { api } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { formatSlotTime, slotKeyAt } from '../../../lib/slot-format';
import { futureReservationsQuery } from '../api/list-future-reservations';

/**
 * One tap in the app while the booking's session runs (issue 42, decision 0120): the next
 * half-hour, booked and paid as on the rig screen. `ends` is the end shown: a second tap after a
 * lost answer books nothing more.
 */
export function ExtendSessionButton({ reservation }: { reservation: Reservation }) {
  const client = useQueryClient();
  const ends = new Date(
    Date.parse(reservation.time) + reservation.duration_minutes * 60_000,
  ).toISOString();
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
