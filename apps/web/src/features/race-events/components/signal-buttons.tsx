import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import type { HostSignal, SignalResult } from '@paddock/contract/races';
import { showAlert, showError } from '../../../lib/alerts';
import { sendSignal } from '../../../lib/api/race-events-api';

/** The launcher's words for the host signals (spec §4). */
export const SIGNAL_LABELS: Record<HostSignal, { label: string; title: string }> = {
  SESSION_START: { label: 'Start', title: 'Start the session (SESSION_START)' },
  SESSION_EXIT: { label: 'Stop', title: 'End the session (SESSION_EXIT)' },
  RELOAD: { label: 'Reload', title: 'Reload the event on the rigs (RELOAD)' },
  MP_BRIEF: { label: 'Brief', title: 'Show the race briefing (MP_BRIEF)' },
};
const ORDER: HostSignal[] = ['SESSION_START', 'SESSION_EXIT', 'RELOAD', 'MP_BRIEF'];

type Props = {
  eventId: number;
  /** Whom the buttons are for, in their accessible names ("Start Cockpit 2"). */
  name: string;
  /** Seats left out of SESSION_START (a party's unticked seats, or all but one). */
  excluded?: number[];
  /** The signals to offer (all four by default). */
  signals?: HostSignal[];
  /** Start would reach nobody (every seat left out). */
  disabled?: boolean;
  /** Why Start cannot go out (`startProblem`): Start is disabled and the reason shown. */
  problem?: string | null;
  /** Give the reason in Start's title only (a party's seat rows, under the party's own line). */
  quiet?: boolean;
  size?: 'sm' | 'lg';
};

/** Start / Stop / Reload / Brief for one event, or for some seats of it. */
export function SignalButtons({
  eventId,
  name,
  excluded = [],
  signals = ORDER,
  disabled,
  problem,
  quiet,
  size = 'sm',
}: Props) {
  const problemId = useId();
  // The last answer stays under the buttons (the alert goes after a few seconds).
  const [answer, setAnswer] = useState<SignalResult | null>(null);
  const signal = useMutation({
    mutationFn: (which: HostSignal) =>
      sendSignal(eventId, {
        signal: which,
        // Only a start can leave seats out (spec §4); the others go to every seat.
        ...(which === 'SESSION_START' && excluded.length ? { excluded_calendars: excluded } : {}),
      }),
    // Never "sent" for a seat with no rig connected (decision 0115): the answer names both.
    onSuccess: (result) => {
      setAnswer(result);
      showAlert(result.detail, result.not_connected.length ? 'warning' : 'success', 5_000);
    },
    onError: (error) => showError(error),
  });
  const blocked = (which: HostSignal) => which === 'SESSION_START' && (disabled || !!problem);
  const group = (
    <ButtonGroup size={size} aria-label={`Signals for ${name}`}>
      {signals.map((which) => (
        <Button
          key={which}
          variant={
            which === 'SESSION_START'
              ? 'success'
              : which === 'SESSION_EXIT'
                ? 'danger'
                : 'outline-secondary'
          }
          title={which === 'SESSION_START' && problem ? problem : SIGNAL_LABELS[which].title}
          aria-describedby={which === 'SESSION_START' && problem && !quiet ? problemId : undefined}
          disabled={blocked(which) || signal.isPending}
          onClick={() => signal.mutate(which)}
        >
          {SIGNAL_LABELS[which].label}
          <span className="visually-hidden"> {name}</span>
        </Button>
      ))}
    </ButtonGroup>
  );
  const said = answer && (
    <p
      className={`small mt-1 mb-0 w-100 ${answer.not_connected.length ? 'text-warning-emphasis' : 'text-success-emphasis'}`}
    >
      {answer.detail}
    </p>
  );
  if ((!problem || quiet) && !said) return group;
  return (
    <>
      {group}
      {problem && !quiet && (
        <p id={problemId} className="small text-danger mt-1 mb-0">
          {problem}
        </p>
      )}
      {said}
    </>
  );
}
